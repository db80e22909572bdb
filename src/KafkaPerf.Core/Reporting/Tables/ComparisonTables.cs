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
    }}
