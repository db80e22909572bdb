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

/// <summary>Compares two saved results cell by cell (<c>dotnet kafkaperf compare</c>): a CI gate on performance.</summary>
public static class ResultComparison
{
    /// <summary>Every client and cell measured in both results, candidate against baseline, from the runs themselves.</summary>
    /// <param name="baseline">The reference result (e.g. from the main branch).</param>
    /// <param name="candidate">The result to judge.</param>
    /// <param name="tolerance">The band of "on par", e.g. 0.05.</param>
    /// <returns>One entry per cell present in both, in the baseline's order.</returns>
    public static IReadOnlyList<ResultCellComparison> Compare(BenchmarkResult baseline, BenchmarkResult candidate, double tolerance = 0.05)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var candidateCells = Samples(candidate);
        var baselineOpen = CellKey.NotVerifiedOf(baseline);
        var candidateOpen = CellKey.NotVerifiedOf(candidate);
        var comparisons = new List<ResultCellComparison>();
        foreach (var (key, baseSamples) in Samples(baseline))
        {
            if (!candidateCells.TryGetValue(key, out var candidateSamples) || baseSamples.Count == 0 || candidateSamples.Count == 0) continue;
            comparisons.Add(new ResultCellComparison(key.Client, key.Scenario, key.MessageCount, key.PayloadBytes, key.Variant,
                baseSamples.Count, candidateSamples.Count,
                Comparison.Of(candidateSamples, baseSamples, MetricDirection.LowerIsBetter, tolerance))
            {
                OfferedRate = key.OfferedRate,
                BaselineNotVerified = baselineOpen.TryGetValue(key, out var b) ? b.Runs : 0,
                CandidateNotVerified = candidateOpen.TryGetValue(key, out var c) ? c.Runs : 0,
            });
        }
        return comparisons;
    }

    private static IReadOnlyDictionary<CellKey, IReadOnlyList<double>> Samples(BenchmarkResult result) => CellKey.CellsOf(result);
}
