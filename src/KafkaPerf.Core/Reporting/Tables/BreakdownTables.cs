using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using static KafkaPerf.Reporting.Tables.FaultTables;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>Where the time went (<see cref="IntervalBreakdown"/>): per cell and client, the clients' own figures and the
/// collections, each run's mean over its measured intervals, then the median over the runs.</summary>
internal static class BreakdownTables
{
    /// <summary>The report's section; none when no run has a breakdown.</summary>
    internal static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && (r.Breakdown is not null || (r.Intervals is { Count: > 0 } intervals && intervals.Any(i => i.Breakdown is not null)))).ToList();
        if (runs.Count == 0) yield break;
        var rows = runs.GroupBy(r => (r.Scenario, r.Variant, r.PayloadBytes, r.OfferedRate, r.Client)).Select(group =>
        {
            var (scenario, variant, payload, rate, client) = group.Key;
            double? Figure(Func<IntervalBreakdown, double?> figure) => Median(group.Select(r => RunMean(r, figure)));
            double? PerSecond(Func<IntervalBreakdown, double?> figure) => Median(group.Select(r => RunPerSecond(r, figure)));
            double? ServiceP50 = Median(group.Select(r => r.Breakdown is not null ? r.Latency?.P50Micros : MedianOverMeasured(r.Intervals!, i => i.ServiceTime?.P50Micros)));
            return (IReadOnlyList<string>)
            [
                Name(scenario), variant, Count(payload), Count((long?)rate), client, Count(group.Count()),
                Ms(Figure(b => b.QueueMs)), Ms(Figure(b => b.RequestMs)), Millis(ServiceP50),
                Value(Figure(b => b.BatchBytes), "0"), Value(Figure(b => b.RecordsPerRequest), "0.0"), Ms(Figure(b => b.ThrottleMs)),
                Ms(Figure(b => b.FetchMs)), Value(Figure(b => b.ClientLag), "0"),
                Ms(PerSecond(b => b.DotnetGcPauseMs)), Ms(PerSecond(b => b.RuntimeGcMs)),
            ];
        }).ToList();
        var brokerRows = runs.Where(r => r.Breakdown?.Broker is not null || r.Intervals?.Any(i => i.Breakdown?.Broker is not null) == true)
            .GroupBy(r => (r.Scenario, r.Variant, r.PayloadBytes, r.OfferedRate, r.Client)).Select(group =>
        {
            var (scenario, variant, payload, rate, client) = group.Key;
            double? Produce(Func<BrokerRequestTimes, double> part) => Median(group.Select(r => RequestWeighted(r, b => b.Produce, part)));
            double? Fetch(Func<BrokerRequestTimes, double> part) => Median(group.Select(r => RequestWeighted(r, b => b.Fetch, part)));
            double? PerSecond(Func<BrokerBreakdown, double?> figure) => Median(group.Select(r => RunPerSecond(r, b => b.Broker is { } broker ? figure(broker) : null)));
            return (IReadOnlyList<string>)
            [
                Name(scenario), variant, Count(payload), Count((long?)rate), client, Count(group.Count()),
                Value(PerSecond(b => b.Produce?.Requests), "0"), Ms(Produce(t => t.QueueMs)), Ms(Produce(t => t.LocalMs)), Ms(Produce(t => t.RemoteMs)),
                Ms(Produce(t => t.ResponseMs)), Ms(Produce(t => t.TotalMs)),
                Value(PerSecond(b => b.Fetch?.Requests), "0"), Ms(Fetch(t => t.RemoteMs)), Ms(Fetch(t => t.TotalMs)),
                Ms(PerSecond(b => b.GcMs)),
            ];
        }).ToList();
        yield return new ReportSection("Where the time went",
        [
            new ReportParagraph("Each client's own figures, read once per interval (never on the send path): queue = how long a record waited "
                + "in the client before its request went out (librdkafka: int_latency + outbuf_latency; Java: record-queue-time-avg), network "
                + "and broker = a produce request's round trip (librdkafka: rtt; Java: request-latency-avg), both the client's own averages over "
                + "its latest statistics window (1 s); beside them the service time's p50 (send to acknowledgement, measured by KafkaPerf), "
                + "the batches, the broker's throttle, a consumer's fetch round trip (librdkafka: rtt to the partitions' leaders; Java: "
                + "fetch-latency-avg, which includes the broker's wait for data) and lag as the client sees it, and the collections: .NET's "
                + "pauses and the client runtime's (the in-process JVM) collection time, per second of the run. A rate run's figure is its "
                + "mean over its measured intervals; a burst's (no intervals) the mean of one reading a second over its timed section, and "
                + "its service p50 its delivery latency's; then the median over the runs; – = the client does not say (the list under the "
                + "table says why: a burst shorter than the client's 1 s window, for one). --no-breakdown leaves it out."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("client"), Right("runs"),
                Right("queue ms"), Right("network + broker ms"), Right("service p50 ms"), Right("batch B"), Right("records/request"),
                Right("throttle ms"), Right("fetch ms"), Right("client lag"), Right(".NET GC ms/s"), Right("runtime GC ms/s"),
            ], rows),
            .. Absent(runs),
            .. BrokerPart(brokerRows),
        ]);
    }

    /// <summary>One line per client and cell without a queue or request figure, beside clients that have them, saying why.</summary>
    private static IEnumerable<ReportBlock> Absent(List<RunRecord> runs)
    {
        var groups = Groups(runs).ToList();
        if (groups.All(g => g.Absent)) yield break;
        var lines = groups.Where(g => g.Absent).Select(g => $"{g.Client}, {g.Cell}: {g.Why.Long}").ToList();
        if (lines.Count > 0) yield return new ReportList(lines);
    }

    /// <summary>Per cell and client of the produce and roundtrip runs with a breakdown: the median queue and request
    /// figures over the runs (none when no run has it) and, for when neither is there, why not.</summary>
    internal static IEnumerable<BreakdownGroup> Groups(IEnumerable<RunRecord> runs) =>
        runs.Where(r => !r.IsWarmup && r.Succeeded && r.Scenario != ScenarioKind.Consume
                && (r.Breakdown is not null || r.Intervals?.Any(i => i.Breakdown is not null) == true))
            .GroupBy(r => (r.Scenario, r.Variant, r.PayloadBytes, r.OfferedRate, r.Client))
            .Select(group =>
            {
                var (scenario, variant, payload, rate, client) = group.Key;
                return new BreakdownGroup(scenario, variant, payload, rate, client,
                    Median(group.Select(r => RunMean(r, b => b.QueueMs))), Median(group.Select(r => RunMean(r, b => b.RequestMs))),
                    Median(group.Select(r => (rate is null ? r.Latency : r.ResponseTime)?.P50Micros / 1_000)), WhyNone([.. group]));
            });

    /// <summary>Why runs have no queue or request figure, at length and in a few words: a burst shorter than the client's
    /// statistics interval ends before the client says anything (librdkafka's come every <c>statistics.interval.ms</c>,
    /// 1 s), which its effective configuration shows; otherwise the client gave none.</summary>
    private static (string Long, string Short) WhyNone(List<RunRecord> runs)
    {
        double? elapsed = Median(runs.Select(r => (double?)r.ElapsedSeconds));
        string? interval = runs.Select(r => r.ProducerConfig?.GetValueOrDefault("statistics.interval.ms")).FirstOrDefault(v => v is not null);
        bool burst = runs.All(r => r.OfferedRate is null);
        if (burst && elapsed is { } seconds && interval is not null && double.TryParse(interval, NumberStyles.Float, CultureInfo.InvariantCulture, out double ms) && ms > 0 && seconds * 1000 < ms)
        {
            return (string.Create(CultureInfo.InvariantCulture, $"no figure - its statistics come every {ms / 1000:0.###} s (statistics.interval.ms), longer than the burst ({seconds:0.###} s), and none came with it"),
                string.Create(CultureInfo.InvariantCulture, $"no figure: statistics every {ms / 1000:0.###} s, burst {seconds:0.###} s"));
        }
        if (burst && elapsed is { } shorter && shorter < 1)
        {
            return (string.Create(CultureInfo.InvariantCulture, $"no figure - the burst lasted {shorter:0.###} s, shorter than the client's statistics window, and none came with it"),
                string.Create(CultureInfo.InvariantCulture, $"no figure: burst {shorter:0.###} s, shorter than its statistics"));
        }
        return ("no figure - the client gave none for its queue or requests", "no figure: the client gave none");
    }

    private static IEnumerable<ReportBlock> BrokerPart(List<IReadOnlyList<string>> rows)
    {
        if (rows.Count == 0) yield break;
        yield return new ReportParagraph("In the broker (its own request metrics, over every node, read once per interval, or over a burst's timed section): how long its "
            + "requests took, split as the broker splits them - waiting for a handler (queue), handled by the leader (local), waiting on "
            + "others (remote: the followers for acks=all; a fetch's wait for data), and the response queued and sent - each the mean "
            + "per request over the run's measured intervals (the broker rounds each request to whole milliseconds), requests per "
            + "second, and its JVM's collection time per second. Fetch = consumers' fetches, not the followers'.");
        yield return new ReportTable(
        [
            Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("client"), Right("runs"),
            Right("produce req/s"), Right("queue ms"), Right("local ms"), Right("remote ms"), Right("response ms"), Right("total ms"),
            Right("fetch req/s"), Right("fetch remote ms"), Right("fetch total ms"), Right("broker GC ms/s"),
        ], rows);
    }

    /// <summary>A part of one kind of request over a run's measured intervals, each interval weighted by its requests.</summary>
    private static double? RequestWeighted(RunRecord run, Func<BrokerBreakdown, BrokerRequestTimes?> kind, Func<BrokerRequestTimes, double> part)
    {
        double sum = 0;
        long requests = 0;
        IEnumerable<IntervalBreakdown> breakdowns = run.Breakdown is { } burst ? [burst] : Measured(run.Intervals!).Select(i => i.Breakdown!);
        foreach (var breakdown in breakdowns)
        {
            if (breakdown.Broker is not { } broker || kind(broker) is not { } times) continue;
            sum += part(times) * times.Requests;
            requests += times.Requests;
        }
        return requests == 0 ? null : sum / requests;
    }

    /// <summary>A run's figure: a burst's own, a load run's mean over its measured intervals.</summary>
    internal static double? RunMean(RunRecord run, Func<IntervalBreakdown, double?> figure) =>
        run.Breakdown is { } burst ? figure(burst) : run.Intervals is { } intervals ? MeanOverMeasured(intervals, figure) : null;

    /// <summary>A run's total of a figure per second: a burst's over its elapsed time, a load run's over its measured intervals.</summary>
    private static double? RunPerSecond(RunRecord run, Func<IntervalBreakdown, double?> figure) =>
        run.Breakdown is { } burst
            ? figure(burst) is { } total && run.ElapsedSeconds > 0 ? total / run.ElapsedSeconds : null
            : run.Intervals is { } intervals ? PerSecondOverMeasured(intervals, figure) : null;

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

    private static string Ms(double? value) => Value(value, "0.00");
}
