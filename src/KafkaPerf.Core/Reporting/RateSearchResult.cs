using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting;

/// <summary>The highest sustainable rate of one client in one cell (<c>find-rate</c>): the last offered rate at which every
/// latency goal held and the first at which one failed, with every probe on the way.</summary>
public sealed record RateSearchResult
{
    /// <summary>The client.</summary>
    public required string Client { get; init; }

    /// <summary>The scenario.</summary>
    public required ScenarioKind Scenario { get; init; }

    /// <summary>The payload size.</summary>
    public required int PayloadBytes { get; init; }

    /// <summary>The settings variant's label.</summary>
    public required string Variant { get; init; }

    /// <summary>The goals, as written (<c>p99&lt;20ms</c>).</summary>
    public required IReadOnlyList<string> Goals { get; init; }

    /// <summary>The highest offered rate that held, in records per second; <see langword="null"/> when none did.</summary>
    public double? HighestHeld { get; init; }

    /// <summary>The lowest offered rate that failed; <see langword="null"/> when none did (up to the maximum probed).</summary>
    public double? LowestFailed { get; init; }

    /// <summary>Every probe, in the order they ran.</summary>
    public required IReadOnlyList<RateProbe> Probes { get; init; }

    /// <summary>What the search found, in words.</summary>
    public required string Conclusion { get; init; }
}

/// <summary>One probe of a rate search.</summary>
/// <param name="OfferedRate">The offered rate, in records per second.</param>
/// <param name="Held">Whether every goal held and the rate was achieved.</param>
/// <param name="Reason">Why not, or <c>held</c>.</param>
/// <param name="AchievedRate">The lowest achieved rate of its runs.</param>
/// <param name="ResponseTime">Response time merged over its runs.</param>
/// <param name="RunSequences">Its runs, by sequence number in the result.</param>
public sealed record RateProbe(double OfferedRate, bool Held, string Reason, double? AchievedRate, LatencySummary? ResponseTime, IReadOnlyList<int> RunSequences);
