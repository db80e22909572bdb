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

    /// <summary>Consume and roundtrip bursts: how much of the difference in median elapsed time (A − B) is the difference
    /// in median time to the first record, as a fraction (1: all of it; above 1: the rest goes the other way; below 0: the
    /// first record differs the other way); <see langword="null"/> when either cell has no time to the first record or
    /// their median elapsed times are equal.</summary>
    public double? StartUpShare { get; init; }

    /// <summary>Whether the elapsed-time verdict is faster or slower and at least half of its difference is the wait for
    /// the first record (<see cref="StartUpShare"/> ≥ 0.5). The tables then add a caveat to the verdict, from the two cells'
    /// figures: <c>java faster (mostly start-up: first record java 3.1 ms, confluent 101.2 ms; after it java's msg/s
    /// 90.12 % of confluent's)</c>. Left out of the JSON when false.</summary>
    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingDefault)]
    public bool MostlyStartUp { get; init; }

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
