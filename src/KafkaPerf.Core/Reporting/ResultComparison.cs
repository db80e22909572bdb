using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

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
