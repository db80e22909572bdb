namespace KafkaPerf.Measurement;

/// <summary>Where the time of an interval went (<c>--no-breakdown</c> leaves it out): the client's own figures, averaged
/// over the run's producers, and the collections of .NET and of the client's runtime in the interval.</summary>
public sealed record IntervalBreakdown
{
    /// <summary>Time a record waited in the client before its request was sent, in milliseconds (the client's own average).</summary>
    public double? QueueMs { get; init; }

    /// <summary>Time a produce request took, network and broker, in milliseconds (the client's own average).</summary>
    public double? RequestMs { get; init; }

    /// <summary>Average batch size in bytes.</summary>
    public double? BatchBytes { get; init; }

    /// <summary>Records per produce request (librdkafka: per batch).</summary>
    public double? RecordsPerRequest { get; init; }

    /// <summary>Broker throttle time, in milliseconds.</summary>
    public double? ThrottleMs { get; init; }

    /// <summary>Time a consumer's fetch request took, from sent to answered, in milliseconds (the client's own average:
    /// librdkafka's <c>rtt</c> of its fetch connections, the Java client's <c>fetch-latency-avg</c>); it includes the
    /// broker's wait for data (<c>fetch.min.bytes</c>, <c>fetch.wait.max.ms</c>).</summary>
    public double? FetchMs { get; init; }

    /// <summary>How far behind the end of its partitions a consumer was, in records, as the client says (librdkafka's
    /// <c>consumer_lag_stored</c>, the Java client's <c>records-lag-max</c>): the sum over a consumer's partitions, averaged over the
    /// consumers.</summary>
    public double? ClientLag { get; init; }

    /// <summary>Time this process's .NET runtime was paused for collections in the interval, in milliseconds.</summary>
    public double? DotnetGcPauseMs { get; init; }

    /// <summary>Where the broker's time went (its own request metrics and collections), when the broker can be asked.</summary>
    public BrokerBreakdown? Broker { get; init; }

    /// <summary>Collection time of the client's own runtime (the in-process JVM of the java clients) in the interval, in
    /// milliseconds; <see langword="null"/> for clients without one.</summary>
    public double? RuntimeGcMs { get; init; }
}
