using System.Globalization;
using KafkaPerf.Reporting.Tables;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.History;

/// <summary>The tables of results over time, in the table model every renderer prints: the gate's judgements
/// (<c>compare --against-history</c>) and a cell's trend (<c>history trend</c>, as Markdown and in its HTML report).</summary>
public static class HistoryTables
{
    /// <summary>A candidate's cells against their history: a paragraph saying against what, then a row per cell.</summary>
    /// <param name="candidate">The candidate result (for its runs not verified and its environment class).</param>
    /// <param name="judgements">The gate's judgements, one per cell.</param>
    /// <param name="last">How many past results per cell were asked for.</param>
    /// <param name="anyEnvironment">Whether results of every environment class were comparable, not only the candidate's.</param>
    /// <param name="store">The store's name, as people read it.</param>
    /// <param name="percent">The allowed slowdown when a gate was asked for (<c>--fail-if-slower</c>).</param>
    /// <returns>The blocks.</returns>
    public static IReadOnlyList<ReportBlock> Judgements(BenchmarkResult candidate, IReadOnlyList<HistoryJudgement> judgements, int last, bool anyEnvironment, string store, double? percent)
    {
        ArgumentNullException.ThrowIfNull(candidate);
        ArgumentNullException.ThrowIfNull(judgements);
        var open = CellKey.NotVerifiedOf(candidate);
        var environment = anyEnvironment ? "any environment" : EnvironmentClass.Of(candidate.Environment);
        return
        [
            new ReportParagraph($"Candidate against the last {Count(last)} comparable results in {store} ({environment}): its median against the history's (each past result counts once, by its median), with the 95 % prediction interval of a new result's median."),
            new ReportTable(
                [Left("client"), Left("scenario"), Left("variant"), Right("messages"), Right("payload B"), Right("offered msg/s"), Left("compared"), Right("history results"),
                 Right("history"), Right("candidate (runs)"), Right("ratio %"), Right("PI low %"), Right("PI high %"), Left("verdict")],
                judgements.Select(string[] (j) =>
                {
                    var c = j.Cell;
                    return
                    [
                        .. Identity(c), c.Metric, Count(j.HistoryResults), Metric(j.HistoryCenter), $"{Metric(j.CandidateMedian)} ({Count(j.CandidateRuns)})",
                        Percent(j.Ratio), Percent(j.Low), Percent(j.High),
                        Verdict(j, percent) + (open.TryGetValue(c, out var o) ? NotVerifiedMark(o.Runs, "candidate") : string.Empty),
                    ];
                })),
        ];
    }

    /// <summary>The trend of each client's cell: a section per cell (titled with the cell and its metric), a row per stored result.</summary>
    /// <param name="points">The points, oldest first.</param>
    /// <param name="percent">The gate's allowed slowdown, for its verdicts.</param>
    /// <returns>The sections.</returns>
    public static IReadOnlyList<ReportSection> Trend(IReadOnlyList<TrendPoint> points, double percent)
    {
        ArgumentNullException.ThrowIfNull(points);
        return [.. points.GroupBy(p => p.Cell).Select(group => new ReportSection($"{group.Key.Describe()}: {group.Key.Metric}",
        [
            new ReportTable(
                [Right("result"), Left("started (UTC)"), Left("label"), Left("commit"), Right("runs"), Right("median"), Right("interval low"), Right("interval high"),
                 Right("vs. history %"), Left("history PI %"), Left("gate")],
                group.Select(string[] (p) =>
                {
                    var (low, high) = p.Interval;
                    var judged = p.Judgement is { Judged: true } j ? j : null;
                    return
                    [
                        Id(p.ResultId), Started(p), p.Label ?? "–", Short(p.Commit), Count(p.Runs.Count), Metric(p.Median), Metric(low), Metric(high),
                        judged is null ? "–" : Percent(judged.Ratio), judged is null ? "–" : $"{Percent(judged.Low)} to {Percent(judged.High)}", Verdict(p.Judgement, percent),
                    ];
                })),
        ]))];
    }

    /// <summary>One cell's points of every client, as the HTML report shows them under the cell's chart.</summary>
    /// <param name="points">The cell's points, oldest first.</param>
    /// <param name="percent">The gate's allowed slowdown, for its verdicts.</param>
    /// <returns>The table.</returns>
    public static ReportTable TrendOfCell(IEnumerable<TrendPoint> points, double percent)
    {
        ArgumentNullException.ThrowIfNull(points);
        return new ReportTable(
            [Right("result"), Left("client"), Left("started (UTC)"), Left("label / commit"), Right("runs"), Right("median"), Right("interval"), Right("vs. history"), Left("gate")],
            points.Select(string[] (p) =>
            {
                var (low, high) = p.Interval;
                return
                [
                    Id(p.ResultId), p.Cell.Client, Started(p), $"{p.Label ?? "–"} / {Short(p.Commit)}", Count(p.Runs.Count), Metric(p.Median),
                    $"{Metric(low)} – {Metric(high)}", p.Judgement is { Judged: true } j ? Percent(j.Ratio) + " %" : "–", Verdict(p.Judgement, percent),
                ];
            }));
    }

    /// <summary>The one wording of the gate's verdict on a cell: <c>slower</c> (beyond the allowed slowdown, when one is
    /// given) and <c>faster</c> as every comparison words them, <c>within its history</c>, or why it was not judged.</summary>
    /// <param name="judgement">The judgement; none when the cell had no history at all.</param>
    /// <param name="percent">The allowed slowdown; without one, any slowdown the interval shows.</param>
    /// <returns>The words.</returns>
    public static string Verdict(HistoryJudgement? judgement, double? percent) => judgement switch
    {
        null => "–",
        { Judged: false } j => $"not judged ({Count(j.HistoryResults)} of {Count(HistoryGate.MinimumHistory)} results before it)",
        var j when j.IsSlowerBeyond(percent ?? 0) => ReportFigures.Verdict(Statistics.Verdict.Slower)
            + (percent is { } allowed ? string.Create(CultureInfo.InvariantCulture, $" by more than {allowed:0.#} %") : string.Empty),
        var j when j.IsFaster => ReportFigures.Verdict(Statistics.Verdict.Faster),
        _ => "within its history",
    };

    /// <summary>A cell's identity columns: client, scenario, variant, messages and size (exactly, as the key names them), rate.</summary>
    private static string[] Identity(CellKey c) =>
        [c.Client, c.Scenario.ToString().ToLowerInvariant(), c.Variant, ExactCells.Number(c.MessageCount), ExactCells.Number(c.PayloadBytes), Value(c.OfferedRate, "0.###")];

    private static string Id(long resultId) => resultId.ToString(CultureInfo.InvariantCulture);

    private static string Started(TrendPoint p) => p.StartedAt.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture);

    private static string Short(string? commit) => commit is null ? "–" : commit.Length > 10 ? commit[..10] : commit;
}
