using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>What <c>compare BASELINE.json CANDIDATE.json</c> prints: a table of <see cref="ResultComparison.Compare"/>'s
/// comparisons, one row per cell measured in both results, with the robust ratio, its interval and the verdict.</summary>
public static class ComparisonTables
{
    /// <summary>The comparisons as a paragraph saying what the figures are, then the table.</summary>
    /// <param name="comparisons">The comparisons, in the order to show.</param>
    /// <returns>The blocks, for any renderer (<c>compare</c> prints them as Markdown).</returns>
    public static IReadOnlyList<ReportBlock> Blocks(IReadOnlyList<ResultCellComparison> comparisons)
    {
        ArgumentNullException.ThrowIfNull(comparisons);
        return
        [
            new ReportParagraph("Candidate against baseline, run by run: elapsed time for bursts, p99 response time at a rate. The robust ratio (about the ratio of medians; below 100 % the candidate is faster) with its 95 % confidence interval."),
            new ReportTable(
                [Left("client"), Left("scenario"), Left("variant"), Right("messages"), Right("payload B"), Right("offered msg/s"), Left("compared"),
                 Right("runs (base / candidate)"), Right("mean ratio %"), Right("robust ratio %"), Right("CI low %"), Right("CI high %"), Left("verdict")],
                comparisons.Select(string[] (c) =>
                {
                    var e = c.ElapsedSeconds;
                    // Messages and size name the cell as its key does (10000, as in "produce 10000 × 100 B"): written exactly.
                    return
                    [
                        c.Client, c.Scenario.ToString().ToLowerInvariant(), c.Variant, ExactCells.Number(c.MessageCount), ExactCells.Number(c.PayloadBytes), Value(c.OfferedRate, "0.###"), c.Metric,
                        $"{Count(c.BaselineRuns)} / {Count(c.CandidateRuns)}", Percent(e.MeanRatio), Percent(e.ShiftRatio), Percent(e.ShiftRatioLow), Percent(e.ShiftRatioHigh),
                        Verdict(e.Verdict, "candidate") + NotVerifiedMark(c.BaselineNotVerified, "baseline") + NotVerifiedMark(c.CandidateNotVerified, "candidate"),
                    ];
                })),
        ];
    }

    /// <summary>The membership events of the cells measured in both results: a paragraph, then one row per cell and event.</summary>
    /// <param name="comparisons">The comparisons (<see cref="RebalanceEventComparison.Compare"/>); none gives no block.</param>
    /// <returns>The blocks.</returns>
    public static IReadOnlyList<ReportBlock> RebalanceBlocks(IReadOnlyList<RebalanceEventComparison> comparisons)
    {
        ArgumentNullException.ThrowIfNull(comparisons);
        if (comparisons.Count == 0) return [];
        return
        [
            new ReportParagraph("Membership events, candidate against baseline: the median time from the event to a stable group (the members' callbacks; "
                + "the robust ratio and its 95 % confidence interval when every run of both settled after a while), the median longest time a partition "
                + "went without records, and the records redelivered over all runs. Not part of --fail-if-slower."),
            new ReportTable(
                [Left("client"), Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("event"), Right("runs (base / candidate)"),
                 Right("stable s (base / candidate)"), Right("robust ratio %"), Right("CI low %"), Right("CI high %"), Left("verdict"),
                 Right("longest gap s (base / candidate)"), Right("redelivered (base / candidate)")],
                comparisons.Select(string[] (c) =>
                [
                    c.Cell.Client, c.Cell.Scenario.ToString().ToLowerInvariant(), c.Cell.Variant, ExactCells.Number(c.Cell.PayloadBytes), Value(c.Cell.OfferedRate, "0.###"), c.Event,
                    $"{Count(c.BaselineRuns)} / {Count(c.CandidateRuns)}",
                    $"{Stable(c.BaselineStableSeconds, c.NotStable.Baseline)} / {Stable(c.CandidateStableSeconds, c.NotStable.Candidate)}",
                    c.Stable is { } s ? Percent(s.ShiftRatio) : "–", c.Stable is { } l ? Percent(l.ShiftRatioLow) : "–", c.Stable is { } h ? Percent(h.ShiftRatioHigh) : "–",
                    c.Stable is { } v ? Verdict(v.Verdict, "candidate") : "not compared",
                    $"{FaultTables.Seconds(c.LongestGapSeconds.Baseline)} / {FaultTables.Seconds(c.LongestGapSeconds.Candidate)}",
                    $"{Count(c.Redelivered.Baseline)} / {Count(c.Redelivered.Candidate)}",
                ])),
        ];
    }

    private static string Stable(double? seconds, int notStable) =>
        (seconds is { } s ? FaultTables.Seconds(s) : "–") + (notStable > 0 ? $" ({Count(notStable)} not stable)" : string.Empty);
}
