using System.Globalization;
using KafkaPerf.Measurement;
using static KafkaPerf.Reporting.Tables.FaultTables;
using static KafkaPerf.Reporting.Tables.ReportColumn;

namespace KafkaPerf.Reporting.Tables;

/// <summary>Where the time went (<see cref="IntervalBreakdown"/>): per cell and client, the clients' own figures and the
/// collections, each run's mean over its measured intervals, then the median over the runs.</summary>
internal static class BreakdownTables
{
    /// <summary>The report's section; none when no run has a breakdown.</summary>
    internal static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Intervals is { Count: > 0 } intervals && intervals.Any(i => i.Breakdown is not null)).ToList();
        if (runs.Count == 0) yield break;
        var rows = runs.GroupBy(r => (r.Scenario, r.Variant, r.PayloadBytes, r.OfferedRate, r.Client)).Select(group =>
        {
            var (scenario, variant, payload, rate, client) = group.Key;
            double? Figure(Func<IntervalBreakdown, double?> figure) => Median(group.Select(r => MeanOverMeasured(r.Intervals!, figure)));
            double? PerSecond(Func<IntervalBreakdown, double?> figure) => Median(group.Select(r => PerSecondOverMeasured(r.Intervals!, figure)));
            double? ServiceP50 = Median(group.Select(r => MedianOverMeasured(r.Intervals!, i => i.ServiceTime?.P50Micros)));
            return (IReadOnlyList<string>)
            [
                Name(scenario), variant, F(payload), F((long?)rate), client, F(group.Count()),
                Ms(Figure(b => b.QueueMs)), Ms(Figure(b => b.RequestMs)), Millis(ServiceP50),
                Number(Figure(b => b.BatchBytes), "0"), Number(Figure(b => b.RecordsPerRequest), "0.0"), Ms(Figure(b => b.ThrottleMs)),
                Ms(PerSecond(b => b.DotnetGcPauseMs)), Ms(PerSecond(b => b.RuntimeGcMs)),
            ];
        }).ToList();
        yield return new ReportSection("Where the time went",
        [
            new ReportParagraph("Each client's own figures, read once per interval (never on the send path): queue = how long a record waited "
                + "in the client before its request went out (librdkafka: int_latency + outbuf_latency; Java: record-queue-time-avg), network "
                + "and broker = a produce request's round trip (librdkafka: rtt; Java: request-latency-avg), both the client's own averages over "
                + "its latest statistics window (1 s); beside them the service time's p50 (send to acknowledgement, measured by KafkaPerf), "
                + "the batches, the broker's throttle, and the collections: .NET's pauses and the client runtime's (the in-process JVM) "
                + "collection time, per second of the run. Each run's mean over its measured intervals, then the median over the runs; – = "
                + "the client does not say. --no-breakdown leaves it out."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("client"), Right("runs"),
                Right("queue ms"), Right("network + broker ms"), Right("service p50 ms"), Right("batch B"), Right("records/request"),
                Right("throttle ms"), Right(".NET GC ms/s"), Right("runtime GC ms/s"),
            ], rows),
        ]);
    }

    private static IEnumerable<IntervalRecord> Measured(IReadOnlyList<IntervalRecord> intervals) =>
        intervals.Where(i => !i.Warmup && i.Breakdown is not null && i.LengthSeconds > 0);

    private static double? MeanOverMeasured(IReadOnlyList<IntervalRecord> intervals, Func<IntervalBreakdown, double?> figure)
    {
        var values = Measured(intervals).Select(i => figure(i.Breakdown!)).OfType<double>().Where(double.IsFinite).ToList();
        return values.Count == 0 ? null : values.Average();
    }

    private static double? PerSecondOverMeasured(IReadOnlyList<IntervalRecord> intervals, Func<IntervalBreakdown, double?> figure)
    {
        var measured = Measured(intervals).Where(i => figure(i.Breakdown!) is not null).ToList();
        double seconds = measured.Sum(i => i.LengthSeconds);
        return measured.Count == 0 || seconds <= 0 ? null : measured.Sum(i => figure(i.Breakdown!)!.Value) / seconds;
    }

    private static double? MedianOverMeasured(IReadOnlyList<IntervalRecord> intervals, Func<IntervalRecord, double?> figure) =>
        Median(Measured(intervals).Select(figure));

    private static string Ms(double? value) => Number(value, "0.00");

    private static string Number(double? value, string format) =>
        value is { } v && double.IsFinite(v) ? v.ToString(format, CultureInfo.InvariantCulture) : "–";
}
