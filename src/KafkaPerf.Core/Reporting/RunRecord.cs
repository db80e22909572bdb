using System.Text.Json.Serialization;
using HdrHistogram;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting;

/// <summary>One run, as measured. Warm-ups are kept (flagged) but never enter statistics.</summary>
public sealed record RunRecord
{
    /// <summary>Position in the plan, from 1.</summary>
    public required int Sequence { get; init; }

    /// <summary>Client name.</summary>
    public required string Client { get; init; }

    /// <summary>Scenario.</summary>
    public required ScenarioKind Scenario { get; init; }

    /// <summary>Messages in the run.</summary>
    public required long MessageCount { get; init; }

    /// <summary>Payload length in bytes.</summary>
    public required int PayloadBytes { get; init; }

    /// <summary>Settings variant label.</summary>
    public required string Variant { get; init; }

    /// <summary>Repetition of this client in this cell, from 1; 0 for the warm-up.</summary>
    public required int Repetition { get; init; }

    /// <summary>Whether this was the excluded warm-up.</summary>
    public required bool IsWarmup { get; init; }

    /// <summary>The run's topic.</summary>
    public required string Topic { get; init; }

    /// <summary>The timed section in seconds (NaN when the run failed).</summary>
    public required double ElapsedSeconds { get; init; }

    /// <summary>Messages per second.</summary>
    public required double MessagesPerSecond { get; init; }

    /// <summary>Payload megabytes (10^6 bytes) per second.</summary>
    public required double MegabytesPerSecond { get; init; }

    /// <summary>Records sent.</summary>
    public long Sent { get; init; }

    /// <summary>Records acknowledged.</summary>
    public long Delivered { get; init; }

    /// <summary>Records consumed, duplicates included.</summary>
    public long Received { get; init; }

    /// <summary>Records lost.</summary>
    public required long Lost { get; init; }

    /// <summary>Records consumed more than once.</summary>
    public required long Duplicates { get; init; }

    /// <summary>Consumed keys outside 0..N-1.</summary>
    public long Unexpected { get; init; }

    /// <summary>Payloads that differed from the one sent.</summary>
    public long PayloadMismatches { get; init; }

    /// <summary>Whether prefetching was on.</summary>
    public bool PrefetchEnabled { get; init; }

    /// <summary>Whether the run succeeded.</summary>
    public required bool Succeeded { get; init; }

    /// <summary>Why it failed.</summary>
    public string? Error { get; init; }

    /// <summary>How much each of the client's own counters (e.g. <c>jni.calls</c>) grew per message in the timed section.</summary>
    public IReadOnlyDictionary<string, double>? CountersPerMessage { get; init; }

    /// <summary>What the timed section used (CPU, collections, allocations, broker CPU, bytes on disk), when it ended.</summary>
    public RunResources? Resources { get; init; }

    /// <summary>Latency percentiles of this run (send→ack or produce→consume), when measured.</summary>
    public LatencySummary? Latency { get; init; }

    /// <summary>The run's latency histogram, kept in memory so that cells merge histograms rather than average percentiles.</summary>
    [JsonIgnore]
    public HistogramBase? LatencyHistogram { get; init; }

    /// <summary>Every how many records one was timed for <see cref="Latency"/>: 1 (all) up to 131 072 records, then a
    /// power of two keeping 65 536 to 131 072 samples; at a rate, 1 up to 131 072 records per second, then a power of two
    /// keeping at most that many a second.</summary>
    public int LatencySampleStride { get; init; } = 1;

    /// <summary>The offered rate in records per second; <see langword="null"/> for a burst.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>The rate at which the measured records were really sent (rate runs).</summary>
    public double? AchievedRate { get; init; }

    /// <summary>Response time: from when each timed record was due (rate runs; <see cref="Latency"/> is this too).</summary>
    public LatencySummary? ResponseTime { get; init; }

    /// <summary>Service time: from when each timed record was actually sent (load runs).</summary>
    public LatencySummary? ServiceTime { get; init; }

    /// <summary>Send delay: actual − intended send time (rate runs).</summary>
    public LatencySummary? SendDelay { get; init; }

    /// <summary>The response-time histogram, for merging.</summary>
    [JsonIgnore]
    public HistogramBase? ResponseTimeHistogram { get; init; }

    /// <summary>The service-time histogram, for merging.</summary>
    [JsonIgnore]
    public HistogramBase? ServiceTimeHistogram { get; init; }

    /// <summary>The send-delay histogram, for merging.</summary>
    [JsonIgnore]
    public HistogramBase? SendDelayHistogram { get; init; }

    /// <summary>The run's time series (load runs), one entry per interval.</summary>
    public IReadOnlyList<IntervalRecord>? Intervals { get; init; }

    /// <summary>When the run's first record was due (wall clock; load runs).</summary>
    public DateTimeOffset? StartedAtUtc { get; init; }

    /// <summary>Records sent as the warm-up of a rate run, excluded from every figure.</summary>
    public long WarmupRecords { get; init; }

    /// <summary>Producer instances of the run.</summary>
    public int Producers { get; init; } = 1;

    /// <summary>Consumers of the run.</summary>
    public int Consumers { get; init; } = 1;

    /// <summary>Timed records whose service time could not be recorded (still in flight after millions of newer ones).</summary>
    public long ServiceTimeMissed { get; init; }

    /// <summary>Each worker's part when workers ran the run together (<c>--workers</c>, <c>--processes</c>); the run's own
    /// figures are their sum, its histograms their exact merge.</summary>
    public IReadOnlyList<WorkerPart>? Workers { get; init; }
}
