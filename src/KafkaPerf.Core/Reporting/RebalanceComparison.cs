using KafkaPerf.Measurement;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>One membership event of one cell measured in two results (<c>compare</c>): the candidate's runs against the
/// baseline's on the time to a stable group, with the longest pause and what was redelivered beside it.</summary>
/// <param name="Cell">The client and cell.</param>
/// <param name="Event">The event, as <c>--fault</c> spells it.</param>
/// <param name="BaselineRuns">The baseline's measured runs with the event.</param>
/// <param name="CandidateRuns">The candidate's.</param>
public sealed record RebalanceEventComparison(CellKey Cell, string Event, int BaselineRuns, int CandidateRuns)
{
    /// <summary>The baseline's median time from the event to a stable group (members' callbacks), over the runs that were
    /// stable by the window's end.</summary>
    public double? BaselineStableSeconds { get; init; }

    /// <summary>The candidate's.</summary>
    public double? CandidateStableSeconds { get; init; }

    /// <summary>Runs of the baseline and of the candidate whose group was not stable by the window's end.</summary>
    public (int Baseline, int Candidate) NotStable { get; init; }

    /// <summary>Candidate against baseline on the time to stable; <see langword="null"/> when either has a run with no
    /// time (not stable) or a time of 0 (the event never unsettled the group): a ratio says nothing then.</summary>
    public Comparison? Stable { get; init; }

    /// <summary>The medians of the longest time a partition went without records (kept or moved).</summary>
    public (double? Baseline, double? Candidate) LongestGapSeconds { get; init; }

    /// <summary>Records redelivered over all the runs.</summary>
    public (long Baseline, long Candidate) Redelivered { get; init; }

    /// <summary>Compares the membership events of every cell measured in both results.</summary>
    /// <param name="baseline">The reference result.</param>
    /// <param name="candidate">The result to judge.</param>
    /// <param name="tolerance">The band of "on par".</param>
    /// <returns>One entry per cell and event present in both, in the baseline's order; none when neither had events.</returns>
    public static IReadOnlyList<RebalanceEventComparison> Compare(BenchmarkResult baseline, BenchmarkResult candidate, double tolerance = 0.05)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var theirs = EventsOf(candidate).ToDictionary(e => (e.Cell, e.Event), e => e.Records);
        var comparisons = new List<RebalanceEventComparison>();
        foreach (var (cell, text, ours) in EventsOf(baseline))
        {
            if (!theirs.TryGetValue((cell, text), out var other)) continue;
            var a = ours.Select(e => e.StableAfterSeconds).ToList();
            var b = other.Select(e => e.StableAfterSeconds).ToList();
            bool comparable = a.Count > 1 && b.Count > 1 && a.Concat(b).All(s => s is > 0);
            comparisons.Add(new RebalanceEventComparison(cell, text, ours.Count, other.Count)
            {
                BaselineStableSeconds = Median(a),
                CandidateStableSeconds = Median(b),
                NotStable = (a.Count(s => s is null), b.Count(s => s is null)),
                Stable = comparable ? Comparison.Of([.. b.Select(s => s!.Value)], [.. a.Select(s => s!.Value)], MetricDirection.LowerIsBetter, tolerance) : null,
                LongestGapSeconds = (Median(ours.Select(LongestGap)), Median(other.Select(LongestGap))),
                Redelivered = (ours.Sum(e => e.Redelivered), other.Sum(e => e.Redelivered)),
            });
        }
        return comparisons;
    }

    private static double? LongestGap(RebalanceRecord e) =>
        e.LongestKeptGapSeconds is null && e.LongestGainedGapSeconds is null ? null : Math.Max(e.LongestKeptGapSeconds ?? 0, e.LongestGainedGapSeconds ?? 0);

    private static double? Median(IEnumerable<double?> values) => Summary.MedianOf(values);

    /// <summary>Each cell's events over its successful measured runs that fired them, in the result's order.</summary>
    private static IEnumerable<(CellKey Cell, string Event, List<RebalanceRecord> Records)> EventsOf(BenchmarkResult result) =>
        result.Runs.Where(r => !r.IsWarmup && r.Succeeded && r.Rebalances is { Count: > 0 })
            .SelectMany(r => r.Rebalances!.Where(e => e.FiredAtSeconds is not null)
                .Select(e => (Cell: new CellKey(r.Client, r.Scenario, r.MessageCount, r.PayloadBytes, r.Variant, r.OfferedRate), Record: e)))
            .GroupBy(x => (x.Cell, x.Record.Event))
            .Select(g => (g.Key.Cell, g.Key.Event, g.Select(x => x.Record).ToList()));
}
