using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>Statistics of one client in one cell, over its measured (non-warm-up, successful) runs.</summary>
public sealed record CellResult
{
    /// <summary>Scenario.</summary>
    public required ScenarioKind Scenario { get; init; }

    /// <summary>Messages per run.</summary>
    public required long MessageCount { get; init; }

    /// <summary>Payload length in bytes.</summary>
    public required int PayloadBytes { get; init; }

    /// <summary>Settings variant label.</summary>
    public required string Variant { get; init; }

    /// <summary>Client name.</summary>
    public required string Client { get; init; }

    /// <summary>Successful measured runs.</summary>
    public required int Runs { get; init; }

    /// <summary>Failed measured runs (excluded from the statistics, never hidden).</summary>
    public required int FailedRuns { get; init; }

    /// <summary>Elapsed seconds.</summary>
    public required Summary ElapsedSeconds { get; init; }

    /// <summary>Messages per second.</summary>
    public required Summary MessagesPerSecond { get; init; }

    /// <summary>Megabytes per second.</summary>
    public required Summary MegabytesPerSecond { get; init; }

    /// <summary>Consume and roundtrip bursts: seconds from the timed section's start to the first record
    /// (<see cref="RunRecord.FirstRecordSeconds"/>) over the successful measured runs; <see langword="null"/> for other cells.</summary>
    public Summary? FirstRecordSeconds { get; init; }

    /// <summary>Consume and roundtrip bursts: the rate after the first record (<see cref="RunRecord.MessagesPerSecondAfterFirst"/>)
    /// over the successful measured runs; <see langword="null"/> for other cells.</summary>
    public Summary? MessagesPerSecondAfterFirst { get; init; }

    /// <summary>Each successful run's elapsed seconds, in run order, for comparisons made from the runs themselves.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyList<double> ElapsedSamples { get; init; } = [];

    /// <summary>Each successful run's messages per second, in run order.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyList<double> MessagesPerSecondSamples { get; init; } = [];

    /// <summary>Latency percentiles from the histograms of every measured run, merged (at a rate: response time).</summary>
    public LatencySummary? Latency { get; init; }

    /// <summary>The offered rate in records per second; <see langword="null"/> for a burst cell.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>The achieved send rate of the successful runs (rate cells).</summary>
    public Summary? AchievedRate { get; init; }

    /// <summary>Response time, merged over the successful runs (rate cells).</summary>
    public LatencySummary? ResponseTime { get; init; }

    /// <summary>Service time, merged over the successful runs (load cells).</summary>
    public LatencySummary? ServiceTime { get; init; }

    /// <summary>Send delay, merged over the successful runs (rate cells).</summary>
    public LatencySummary? SendDelay { get; init; }

    /// <summary>Each successful run's 99th-percentile response time in microseconds, for comparisons of rate cells.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyList<double> ResponseP99Samples { get; init; } = [];

    /// <summary>Medians of the resources the successful measured runs used; <see langword="null"/> when none recorded any.</summary>
    public CellResources? Resources { get; init; }

    /// <summary>Records proven lost, over every measured run: acknowledged, and a read of their partition went past their
    /// offset without them.</summary>
    public required long Lost { get; init; }

    /// <summary>Acknowledged records not read and not proven lost (a read stopped short of them), over every measured run.</summary>
    public long NotVerified { get; init; }

    /// <summary>Measured runs whose read could not account for every acknowledged record (counted in
    /// <see cref="FailedRuns"/> too): their figures are missing, not wrong.</summary>
    public int NotVerifiedRuns { get; init; }

    /// <summary>Duplicates, over every measured run.</summary>
    public required long Duplicates { get; init; }
}
