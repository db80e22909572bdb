using static KafkaPerf.Reporting.Tables.FaultTables;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>The runs' transactions (<c>--transactions</c>): per cell and client, how many were committed and aborted,
/// and how long one took, medians over the measured runs.</summary>
internal static class TransactionTables
{
    /// <summary>The report's section; none when no run had transactions.</summary>
    internal static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Transactions is not null).ToList();
        if (runs.Count == 0) yield break;
        var rows = runs.GroupBy(r => (r.Scenario, r.Variant, r.PayloadBytes, r.OfferedRate, r.Client)).Select(group =>
        {
            var (scenario, variant, payload, rate, client) = group.Key;
            var t = group.Select(r => r.Transactions!).ToList();
            return (IReadOnlyList<string>)
            [
                Name(scenario), variant, Count(payload), rate is { } offered ? Count((long)offered) : "burst", client, Count(group.Count()),
                Count(t.Sum(x => x.Committed)), Count(t.Sum(x => x.Aborted)), Millis(Median(t.Select(x => x.Latency?.P50Micros))),
                Millis(Median(t.Select(x => x.Latency?.P99Micros))), Millis(Median(t.Select(x => x.Latency?.MaxMicros))),
            ];
        }).ToList();
        yield return new ReportSection("Transactions",
        [
            new ReportParagraph("Each run's producer committed a transaction every so many records (the variant's transactions=), aborting the "
                + "share abort.ratio= gives, each aborted one flushed first; consumers read committed records only. A transaction's time runs from its "
                + "first record's send to the broker's answer to its commit or abort. Committed and aborted are totals over the measured runs; the "
                + "times are medians of each run's percentile. The records per second in the tables above count every record sent, aborted ones too."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("client"), Right("runs"), Right("committed"),
                Right("aborted"), Right("p50 ms"), Right("p99 ms"), Right("max ms"),
            ], rows),
        ]);
    }
}
