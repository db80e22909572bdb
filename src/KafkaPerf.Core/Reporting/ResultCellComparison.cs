using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>One client and cell measured in two results: the candidate's runs against the baseline's - their elapsed
/// times for a burst, their p99 response times at a rate (every run of a rate lasts the same; what differs is latency).</summary>
/// <param name="Client">The client.</param>
/// <param name="Scenario">The scenario.</param>
/// <param name="MessageCount">Messages per run.</param>
/// <param name="PayloadBytes">Payload size.</param>
/// <param name="Variant">The settings variant.</param>
/// <param name="BaselineRuns">Successful measured runs in the baseline result.</param>
/// <param name="CandidateRuns">Successful measured runs in the candidate result.</param>
/// <param name="ElapsedSeconds">Candidate against baseline, on <see cref="Metric"/>; below 1 the candidate is faster.</param>
public sealed record ResultCellComparison(
    string Client, ScenarioKind Scenario, long MessageCount, int PayloadBytes, string Variant, int BaselineRuns, int CandidateRuns, Comparison ElapsedSeconds)
{
    /// <summary>The offered rate of a rate cell; <see langword="null"/> for a burst.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>What was compared: <c>elapsed s</c> (bursts) or <c>p99 response µs</c> (rates).</summary>
    public string Metric => OfferedRate is null ? "elapsed s" : "p99 response µs";

    /// <summary>The baseline's measured runs of this cell whose read could not account for every record (not compared).</summary>
    public int BaselineNotVerified { get; init; }

    /// <summary>The candidate's measured runs of this cell whose read could not account for every record (not compared).</summary>
    public int CandidateNotVerified { get; init; }

    /// <summary>Whether the candidate is slower than the baseline by more than <paramref name="percent"/> % with the
    /// comparison's confidence: the lower end of the interval of the robust ratio lies above 1 + percent / 100.</summary>
    /// <param name="percent">The allowed slowdown, e.g. 10.</param>
    public bool IsSlowerBeyond(double percent) =>
        double.IsFinite(ElapsedSeconds.ShiftRatioLow) && ElapsedSeconds.ShiftRatioLow > 1 + (percent / 100);
}
