namespace KafkaPerf.Clients;

/// <summary>What a producer is created for.</summary>
/// <param name="Topic">The topic every record goes to.</param>
/// <param name="Settings">Common knobs and this client's overrides.</param>
public sealed record ProducerSpec(string Topic, ClientSettings Settings)
{
    /// <summary>Cancelled when the run is cancelled or stalls: every blocking call of the producer (its creation, a send
    /// that waits for room, a flush) ends soon after, and disposing it then waits for nothing in flight.</summary>
    public CancellationToken Cancellation { get; init; }

    /// <summary>The longest any one wait of the producer may last without progress (creation, metadata, closing);
    /// the plan's stall timeout.</summary>
    public TimeSpan StallTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Collect the client's own statistics for <see cref="IClientBreakdown"/> (librdkafka's statistics every
    /// second, the Java client's metrics over 1 s windows); off for producers whose figures nobody reads.</summary>
    public bool Statistics { get; init; }
}
