namespace KafkaPerf.Measurement;

/// <summary>Where the broker's time went in an interval, from its own request metrics (the embedded broker's; over every
/// node of a cluster), and its runtime's collections.</summary>
public sealed record BrokerBreakdown
{
    /// <summary>Produce requests completed in the interval, and the mean of their parts; <see langword="null"/> when none.</summary>
    public BrokerRequestTimes? Produce { get; init; }

    /// <summary>Consumers' fetch requests (<c>FetchConsumer</c>: not the followers') completed in the interval.</summary>
    public BrokerRequestTimes? Fetch { get; init; }

    /// <summary>Share-group fetch requests (<c>ShareFetch</c>) completed in the interval.</summary>
    public BrokerRequestTimes? ShareFetch { get; init; }

    /// <summary>Collection time of the brokers' JVMs in the interval, in milliseconds, over every node that answered.</summary>
    public double? GcMs { get; init; }

    /// <summary>Collections of the brokers' JVMs in the interval.</summary>
    public long? GcCount { get; init; }
}

/// <summary>The mean time of one kind of request in the broker, split as the broker splits it (each part in
/// milliseconds, rounded by the broker to whole milliseconds per request before it is averaged).</summary>
/// <param name="Requests">Requests of the kind completed in the interval.</param>
/// <param name="QueueMs">Time in the broker's request queue, waiting for a request handler thread.</param>
/// <param name="LocalMs">Time the leader took to handle it (appending to its log, reading for a fetch).</param>
/// <param name="RemoteMs">Time it waited on others: the followers for a produce with <c>acks=all</c>, enough data or the
/// wait limit for a fetch (a fetch's long poll).</param>
/// <param name="ResponseMs">Time its response waited to be sent and was sent (response queue + response send).</param>
/// <param name="TotalMs">Its whole time in the broker, from the request read to the response sent.</param>
public sealed record BrokerRequestTimes(long Requests, double QueueMs, double LocalMs, double RemoteMs, double ResponseMs, double TotalMs);
