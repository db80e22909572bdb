using static KafkaPerf.Reporting.Tables.FaultTables;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>The runs' consumer backlogs (<c>--backlog</c>): per cell and client, when the backlog was reached, how long
/// the consumers took to catch up and how fast they drained it, medians over the measured runs.</summary>
internal static class BacklogTables
{
    /// <summary>The report's section; none when no run had a backlog.</summary>
    internal static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Backlog is not null).ToList();
        if (runs.Count == 0) yield break;
        var rows = runs.GroupBy(r => (r.Variant, r.PayloadBytes, r.OfferedRate, r.Client)).Select(group =>
        {
            var (variant, payload, rate, client) = group.Key;
            var b = group.Select(r => r.Backlog!).ToList();
            return (IReadOnlyList<string>)
            [
                variant, Count(payload), Count((long?)rate), client, Count(group.Count()), Count(b[0].Records),
                Seconds(Median(b.Select(x => (double?)x.ReachedAtSeconds))), Seconds(Median(b.Select(x => (double?)x.ConsumersReadyAtSeconds))),
                Seconds(Median(b.Select(x => x.CatchUpSeconds))), Count((long?)Median(b.Select(x => x.DrainRecordsPerSecond))),
                Count(b.Count(x => x.CaughtUpAtSeconds is null)),
            ];
        }).ToList();
        yield return new ReportSection("Consumer backlog",
        [
            new ReportParagraph("The producers sent at the offered rate from the start; the consumers started once the backlog was acknowledged "
                + "and unread, read the topic from its beginning, and caught up while the producers went on. Seconds from when the first record "
                + "was due. Caught up = the end of the first interval after the consumers' start whose lag was under 100 ms of records (or 1 % of "
                + "the backlog), so to the granularity of --interval; drain = records consumed per second from the consumers' start to then. The "
                + "response times of these runs include the backlog's wait: the lag per interval is in the time series. Medians over the runs."),
            new ReportTable(
            [
                Left("variant"), Right("payload B"), Right("offered msg/s"), Left("client"), Right("runs"), Right("backlog records"), Right("reached s"),
                Right("consumers ready s"), Right("catch-up s"), Right("drain msg/s"), Right("never caught up"),
            ], rows),
        ]);
    }
}
