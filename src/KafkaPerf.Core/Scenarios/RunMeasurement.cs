using HdrHistogram;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>What one run of a scenario measured, before any statistics.</summary>
public sealed record RunMeasurement
{
    /// <summary>The timed section, in seconds.</summary>
    public double ElapsedSeconds { get; init; }

    /// <summary>Records sent.</summary>
    public long Sent { get; init; }

    /// <summary>Records acknowledged by the broker.</summary>
    public long Delivered { get; init; }

    /// <summary>Records consumed (every arrival, duplicates included).</summary>
    public long Received { get; init; }

    /// <summary>Records expected but never delivered or consumed.</summary>
    public long Lost { get; init; }

    /// <summary>Records consumed more than once.</summary>
    public long Duplicates { get; init; }

    /// <summary>Consumed keys outside 0..N-1.</summary>
    public long Unexpected { get; init; }

    /// <summary>Consumed payloads that differ from the one sent (only when payload checking is on).</summary>
    public long PayloadMismatches { get; init; }

    /// <summary>Send→ack (produce) or produce→consume (roundtrip) latency in nanoseconds; <see langword="null"/> when not measured.</summary>
    public HistogramBase? Latency { get; init; }

    /// <summary>Every how many records one went into <see cref="Latency"/> (1 = all; see <see cref="LatencySampling"/>).</summary>
    public int LatencySampleStride { get; init; } = 1;

    /// <summary>Whether prefetching was on for the consumer.</summary>
    public bool PrefetchEnabled { get; init; }

    /// <summary>Why the run failed; <see langword="null"/> when it succeeded.</summary>
    public string? Error { get; init; }

    /// <summary>The producer's effective configuration, when one was used.</summary>
    public IReadOnlyDictionary<string, string>? ProducerConfig { get; init; }

    /// <summary>The consumer's effective configuration, when one was used.</summary>
    public IReadOnlyDictionary<string, string>? ConsumerConfig { get; init; }

    /// <summary>How much each of the client's own counters (<see cref="Clients.IBenchClient.ReadCounters"/>) grew per
    /// message during the timed section; <see langword="null"/> when the client keeps none.</summary>
    public IReadOnlyDictionary<string, double>? CountersPerMessage { get; init; }

    /// <summary>What the timed section used: CPU, collections, allocations, the broker's CPU and the topic's bytes on
    /// disk; <see langword="null"/> when the run failed before its timed section ended.</summary>
    public RunResources? Resources { get; init; }

    /// <summary>The offered rate, in records per second; <see langword="null"/> for a burst.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>The rate at which the measured records were really sent, in records per second (rate runs).</summary>
    public double? AchievedRate { get; init; }

    /// <summary>Response time in nanoseconds: from when each timed record was due to its acknowledgement (produce) or
    /// arrival (roundtrip); rate runs only. It includes every delay of the sender, so a stall cannot hide.</summary>
    public HistogramBase? ResponseTime { get; init; }

    /// <summary>Service time in nanoseconds: from when each timed record was actually sent (load runs).</summary>
    public HistogramBase? ServiceTime { get; init; }

    /// <summary>Send delay in nanoseconds: actual − intended send time of each timed record (rate runs).</summary>
    public HistogramBase? SendDelay { get; init; }

    /// <summary>The time series of a load run, one entry per interval.</summary>
    public IReadOnlyList<Measurement.IntervalRecord>? Intervals { get; init; }

    /// <summary>When the first record was due (wall clock), for the intervals' absolute times.</summary>
    public DateTimeOffset? StartedAtUtc { get; init; }

    /// <summary>Records of the warm-up at the start of a rate run, excluded from every figure.</summary>
    public long WarmupRecords { get; init; }

    /// <summary>Producer instances that sent the run's records.</summary>
    public int Producers { get; init; } = 1;

    /// <summary>Consumers in the run's group.</summary>
    public int Consumers { get; init; } = 1;

    /// <summary>Timed records whose service time could not be recorded: still in flight after
    /// <see cref="Load.SendTimeRing.MaxCapacity"/> newer timed records (their response time was recorded).</summary>
    public long ServiceTimeMissed { get; init; }

    /// <summary>Each worker's part when workers ran the run together; <see langword="null"/> for a run of this process.</summary>
    public IReadOnlyList<WorkerPart>? Workers { get; init; }

    /// <summary>Whether the run succeeded: no error, nothing lost, no duplicate, nothing unexpected.</summary>
    public bool Succeeded => Error is null && Lost == 0 && Duplicates == 0 && Unexpected == 0 && PayloadMismatches == 0;
}
