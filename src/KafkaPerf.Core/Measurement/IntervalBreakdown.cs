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

    /// <summary>Time this process's .NET runtime was paused for collections in the interval, in milliseconds.</summary>
    public double? DotnetGcPauseMs { get; init; }

    /// <summary>Collection time of the client's own runtime (the in-process JVM of the java clients) in the interval, in
    /// milliseconds; <see langword="null"/> for clients without one.</summary>
    public double? RuntimeGcMs { get; init; }
}
