namespace KafkaPerf.Clients;

/// <summary>What a consumer is created for.</summary>
/// <param name="Topic">The topic to subscribe to, read from the beginning.</param>
/// <param name="GroupId">A consumer group of its own for this run.</param>
/// <param name="Settings">Common knobs and this client's overrides.</param>
/// <param name="UsePrefetch">Ask for prefetching on a thread of the client's own, where the client has it.</param>
public sealed record ConsumerSpec(string Topic, string GroupId, ClientSettings Settings, bool UsePrefetch)
{
    /// <summary>Cancelled when the run is cancelled or stalls: disposing the consumer then leaves the group without
    /// waiting for the broker.</summary>
    public CancellationToken Cancellation { get; init; }

    /// <summary>The longest any one wait of the consumer may last (leaving the group on dispose); the plan's stall timeout.</summary>
    public TimeSpan StallTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>The member's <c>group.instance.id</c> under static membership (<see cref="ClientSettings.StaticMembership"/>),
    /// the same when it restarts; <see langword="null"/> for a dynamic member. Added in contract 2.1.</summary>
    public string? InstanceId { get; init; }

    /// <summary>Whether the consumer collects its own statistics for the breakdown (<see cref="IClientBreakdown"/>), read
    /// once per interval; a client may have to turn them on (librdkafka's <c>statistics.interval.ms</c>).</summary>
    public bool Statistics { get; init; }
}
