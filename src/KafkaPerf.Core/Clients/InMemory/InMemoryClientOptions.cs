namespace KafkaPerf.Clients.InMemory;

/// <summary>Options of the <c>inmemory</c> client.</summary>
public sealed record InMemoryClientOptions
{
    /// <summary>The name the client registers under (default <c>inmemory</c>); tests register a second, slower one.</summary>
    public string Name { get; init; } = "inmemory";

    /// <summary>A busy-wait added to every send, to make a deliberately slower client: it takes at most one record per
    /// delay, so at a rate above that its sends fall behind (a client with a known knee).</summary>
    public TimeSpan SendDelay { get; init; } = TimeSpan.Zero;

    /// <summary>The record whose send stalls for <see cref="PauseDuration"/> (once per producer), to inject a client-side
    /// stall; <see langword="null"/>: none.</summary>
    public long? PauseAtRecord { get; init; }

    /// <summary>How long the send of <see cref="PauseAtRecord"/> stalls.</summary>
    public TimeSpan PauseDuration { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>How long each consumer waits after its assignment before it reads its first record, as librdkafka's
    /// consumer of a new group waits about 100 ms before its first fetch: a client with a fixed start-up and the same rate
    /// after it (tests of the start-up caveat). Zero by default.</summary>
    public TimeSpan FirstRecordDelay { get; init; } = TimeSpan.Zero;

    /// <summary>Whether delivery reports count as acknowledgements with a latency (off by default: they are immediate,
    /// so timing them would only measure the clock).</summary>
    public bool ReportsDeliveryLatency { get; init; }

    /// <summary>While a consumer is attached, a send waits when this many records are queued and unread,
    /// as a real client's bounded queue does; it keeps roundtrip memory flat.</summary>
    public int MaxQueuedRecords { get; init; } = 1 << 20;
}
