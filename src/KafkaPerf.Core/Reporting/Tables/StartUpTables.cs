using KafkaPerf.Statistics;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>The report's "Start-up and rate" section: for consume and roundtrip cells, the time to the first record apart
/// from the rate after it (<see cref="CellResult.FirstRecordSeconds"/>, <see cref="CellResult.MessagesPerSecondAfterFirst"/>).</summary>
internal static class StartUpTables
{
    /// <summary>What a verdict that is <see cref="CellComparison.MostlyStartUp"/> says after it: both waits, and the
    /// candidate's rate after the first record against the baseline's.</summary>
    /// <param name="candidate">The candidate's cell.</param>
    /// <param name="baseline">The baseline's cell.</param>
    /// <returns>The caveat, e.g. <c>mostly start-up: first record java 3.1 ms, confluent 101.2 ms; after it java's msg/s 90.12 % of confluent's</c>.</returns>
    public static string Caveat(CellResult candidate, CellResult baseline)
    {
        string a = candidate.Client, b = baseline.Client;
        string waits = $"mostly start-up: first record {a} {Milliseconds(candidate.FirstRecordSeconds)} ms, {b} {Milliseconds(baseline.FirstRecordSeconds)} ms";
        double? after = candidate.MessagesPerSecondAfterFirst?.Median / baseline.MessagesPerSecondAfterFirst?.Median;
        return after is { } ratio && double.IsFinite(ratio) ? $"{waits}; after it {a}'s msg/s {Percent(ratio)} % of {b}'s" : waits;
    }

    /// <summary>The caveat of a comparison of <paramref name="result"/>, with its leading space; empty when it has none.</summary>
    /// <param name="result">The result.</param>
    /// <param name="comparison">One of its comparisons.</param>
    /// <returns>The text to put after the verdict.</returns>
    public static string CaveatOf(BenchmarkResult result, CellComparison comparison)
    {
        if (!comparison.MostlyStartUp) return string.Empty;
        var candidate = CellOf(result, comparison, comparison.Candidate);
        var baseline = CellOf(result, comparison, comparison.Baseline);
        return candidate is null || baseline is null ? " (mostly start-up)" : $" ({Caveat(candidate, baseline)})";
    }

    /// <summary>Consume and roundtrip cells: the wait for the first record apart from the rate after it, which a short run's
    /// elapsed time mixes.</summary>
    public static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var cells = result.Cells.Where(c => c.FirstRecordSeconds is not null).ToList();
        if (cells.Count == 0) yield break;
        yield return new ReportSection("Start-up and rate",
        [
            new ReportParagraph("Consume and roundtrip, medians over the measured runs: the time from the timed section's start (consume: the partitions' "
                + "assignment; roundtrip: the first send) to the first record received, its share of the median elapsed time, and the rate after it "
                + "(the records after the first over the time from the first to the last). A wait before the first record - librdkafka's consumer of a "
                + "new group waits about 100 ms before its first fetch - weighs on a short run's elapsed time and msg/s without being a rate; a verdict "
                + $"whose difference is at least {Value(StartUp.MostlyThreshold * 100, "0")} % that wait says \"mostly start-up\"."),
            new ReportTable(
                [Left("scenario"), Left("variant"), Left("client"), Right("messages"), Right("payload B"), Right("runs"), Right("median s"), Right("first record ms"),
                 Right("first record % of elapsed"), Right("median msg/s"), Right("msg/s after first")],
                cells.Select(string[] (c) =>
                [
                    FaultTables.Name(c.Scenario), c.Variant, c.Client, Count(c.MessageCount), Count(c.PayloadBytes), Count(c.Runs), Value(c.ElapsedSeconds.Median, "0.000000"),
                    Value(c.FirstRecordSeconds!.Median * 1000, "0.00"), Percent(c.FirstRecordSeconds.Median / c.ElapsedSeconds.Median),
                    Value(c.MessagesPerSecond.Median, "0"), Value(c.MessagesPerSecondAfterFirst?.Median, "0"),
                ])),
        ]);
    }

    private static CellResult? CellOf(BenchmarkResult result, CellComparison c, string client) =>
        result.Cells.FirstOrDefault(x => x.Client == client && x.Scenario == c.Scenario && x.MessageCount == c.MessageCount && x.PayloadBytes == c.PayloadBytes
            && x.Variant == c.Variant && x.OfferedRate == c.OfferedRate);

    private static string Milliseconds(Summary? seconds) => Value(seconds?.Median * 1000, "0.0");
}
