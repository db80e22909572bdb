using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>A candidate client against the baseline (the plan's first client) in one cell.</summary>
public sealed record CellComparison
{
    /// <summary>Scenario.</summary>
    public required ScenarioKind Scenario { get; init; }

    /// <summary>Messages per run.</summary>
    public required long MessageCount { get; init; }

    /// <summary>Payload length in bytes.</summary>
    public required int PayloadBytes { get; init; }

    /// <summary>Settings variant label.</summary>
    public required string Variant { get; init; }

    /// <summary>The client compared (A).</summary>
    public required string Candidate { get; init; }

    /// <summary>The baseline (B).</summary>
    public required string Baseline { get; init; }

    /// <summary>Elapsed time, A/B: below 100 % A is faster.</summary>
    public required Comparison ElapsedSeconds { get; init; }

    /// <summary>Messages per second, A/B: above 100 % A is faster.</summary>
    public required Comparison MessagesPerSecond { get; init; }

    /// <summary>A/B × 100 of the merged p50 latency, when both have latency.</summary>
    public double? LatencyP50RatioPercent { get; init; }

    /// <summary>A/B × 100 of the merged p99 latency, when both have latency.</summary>
    public double? LatencyP99RatioPercent { get; init; }

    /// <summary>The offered rate of a rate cell; <see langword="null"/> for a burst.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>Rate cells: the candidate's 99th-percentile response time against the baseline's, run by run (lower is
    /// better), with the same robust ratio, interval and verdict as elapsed times.</summary>
    public Comparison? ResponseTimeP99 { get; init; }
}
