using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>
/// The time series of load cells: per cell, the achieved rate per interval of every client beside the offered rate,
/// the p50 and p99 latency per interval (response time at a rate, service time for a burst), and where the time went
/// (the breakdown's client queue, network and broker time, and collections), on one time axis so that a spike in one
/// can be read against the others. Each point is the median over the client's measured, successful runs of that
/// interval, so one slow run does not draw the line; a line breaks at every interval without a figure, and each client's
/// lane above the plot shows its own fault windows and the intervals in which it acknowledged nothing.
/// </summary>
/// <remarks>A rate search's probes are drawn by <see cref="RateProbeCharts"/>, all of a cell's on one chart, not here.</remarks>
internal static class TimeSeriesCharts
{
    public static IEnumerable<ReportChart> For(BenchmarkResult result)
    {
        if (RateProbeCharts.IsSearch(result)) yield break;
        var plan = result.Plan;
        var happened = ChartRuns.Happened(result).ToList();
        foreach (var cell in plan.Cells())
        {
            var clients = plan.ClientsFor(cell).Select(client => new CellTimeline.Row(client, plan.Clients.ToList().IndexOf(client), Runs(happened, cell, client))).ToList();
            if (clients.All(c => c.Runs.Count == 0)) continue;
            var timeline = new CellTimeline(clients, cell.Scenario);
            string what = timeline.Done;
            string suffix = Suffix(cell);
            string setting = $"{ChartFormat.Bytes(cell.PayloadBytes)} payloads · settings: {cell.Variant}"
                + (cell.Rate is { } rate ? $" · offered {ChartFormat.Count(rate)} msg/s" : " · burst");

            // A run's last interval is usually a short tail (the drain after its last due time): a rate over a few
            // hundredths of a second would draw a collapse that never happened, so the rate lines leave it out.
            var rateLines = clients.Select(c => new XYChart.Series(c.Name, c.Index,
                CellTimeline.Line(c.Runs, i => cell.Scenario == ScenarioKind.Produce ? i.AcknowledgedPerSecond : i.ConsumedPerSecond, fullOnly: true),
                Markers: false, Whiskers: false, EmptyText: NotRun(c))).ToList();
            if (cell.Rate is { } offered)
            {
                // The schedule, not a measurement: from the first record's due time to the last's (the drain after it is
                // offered nothing).
                double lastDue = clients.SelectMany(c => c.Runs).Select(r => r.Intervals!.Sum(i => i.Sent) / offered).DefaultIfEmpty(timeline.End).Max();
                rateLines.Add(new XYChart.Series("offered", plan.Clients.Count, [new(0, offered), new(Math.Min(lastDue, timeline.End), offered)], Markers: false, Whiskers: false, Dash: "4 4"));
            }
            double rateMax = rateLines.SelectMany(s => s.Points).Select(p => p.Y).Where(double.IsFinite).DefaultIfEmpty(1).Max();
            string title = $"{Title(cell.Scenario)} rate over time, {ChartFormat.Bytes(cell.PayloadBytes)}{(cell.Rate is { } r1 ? $" at {ChartFormat.Count(r1)} msg/s" : string.Empty)}";
            yield return new ReportChart($"rate-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{suffix}", ChartKind.TimeSeries, title,
                Render(timeline, title, setting, $"{what} msg/s", rateLines, Axis.LinearFromZero(rateMax * 1.1, ChartFormat.Count),
                    $"Each point: records {what} per interval (median over the measured runs). The warm-up (shaded) counts in no figure; a run's short last interval (the drain) is not drawn."));

            bool rateCell = cell.Rate is not null;
            var latencyLines = new List<XYChart.Series>();
            foreach (var c in clients)
            {
                latencyLines.Add(new XYChart.Series($"{c.Name} p99", c.Index, CellTimeline.Line(c.Runs, i => (rateCell ? i.ResponseTime : i.ServiceTime)?.P99Micros ?? double.NaN), Markers: false, Whiskers: false, EmptyText: NotRun(c), Dash: string.Empty));
                latencyLines.Add(new XYChart.Series($"{c.Name} p50", c.Index, CellTimeline.Line(c.Runs, i => (rateCell ? i.ResponseTime : i.ServiceTime)?.P50Micros ?? double.NaN), Markers: false, Whiskers: false, EmptyText: NotRun(c), Dash: "3 3"));
            }
            var values = latencyLines.SelectMany(s => s.Points).Select(p => p.Y).Where(v => double.IsFinite(v) && v > 0).ToList();
            if (values.Count == 0) continue;
            bool millis = values.Max() >= 2_000;
            double scale = millis ? 1_000 : 1;
            latencyLines = [.. latencyLines.Select(s => s with { Points = [.. s.Points.Select(p => p with { Y = p.Y / scale })] })];
            double min = values.Min() / scale, max = values.Max() / scale;
            bool log = max / min > 20;
            string unit = millis ? "ms" : "µs";
            string kind = rateCell ? "response time" : "service time";
            string latencyTitle = $"{Title(cell.Scenario)} {kind} over time, {ChartFormat.Bytes(cell.PayloadBytes)}{(cell.Rate is { } r2 ? $" at {ChartFormat.Count(r2)} msg/s" : string.Empty)}";
            yield return new ReportChart($"latency-time-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{suffix}", ChartKind.TimeSeries, latencyTitle,
                Render(timeline, latencyTitle, setting, log ? $"{kind} ({unit}, log scale)" : $"{kind} ({unit})", latencyLines,
                    log ? Axis.Log(min, max, ChartFormat.Short) : Axis.LinearFromZero(max * 1.05, ChartFormat.Short),
                    rateCell
                        ? $"Solid: p99, dashed: p50 of the records {what} in each interval, measured from when each was due (median over the measured runs); an interval in which none was {what} has no figure."
                        : $"Solid: p99, dashed: p50 of the records {what} in each interval, measured from when each was sent (median over the measured runs); an interval in which none was {what} has no figure."));

            if (Breakdown(timeline, clients, cell, setting, suffix) is { } breakdown) yield return breakdown;
        }
    }

    /// <summary>Where the time went per interval: each client's queue (dashed), network and broker (solid) and
    /// collections (dotted: .NET's pauses and its JVM's collection time in the interval), in milliseconds; none when no
    /// run has a breakdown.</summary>
    private static ReportChart? Breakdown(CellTimeline timeline, List<CellTimeline.Row> clients, PlanCell cell, string setting, string suffix)
    {
        static double Or(double? value) => value ?? double.NaN;
        var lines = new List<XYChart.Series>();
        foreach (var (client, index, runs) in clients)
        {
            var withBreakdown = runs.Where(r => r.Intervals!.Any(i => i.Breakdown is not null)).ToList();
            if (withBreakdown.Count == 0) continue;
            bool consumer = cell.Scenario != ScenarioKind.Produce;
            lines.Add(new XYChart.Series($"{client} network + broker", index, CellTimeline.Line(withBreakdown, i => Or(i.Breakdown?.RequestMs)), Markers: false, Whiskers: false, Dash: string.Empty));
            lines.Add(new XYChart.Series($"{client} queue", index, CellTimeline.Line(withBreakdown, i => Or(i.Breakdown?.QueueMs)), Markers: false, Whiskers: false, Dash: "6 3"));
            if (consumer) lines.Add(new XYChart.Series($"{client} fetch", index, CellTimeline.Line(withBreakdown, i => Or(i.Breakdown?.FetchMs)), Markers: false, Whiskers: false, Dash: "10 3 2 3"));
            lines.Add(new XYChart.Series($"{client} GC", index, CellTimeline.Line(withBreakdown, i => i.Breakdown is { } b ? (b.DotnetGcPauseMs ?? 0) + (b.RuntimeGcMs ?? 0) : double.NaN), Markers: false, Whiskers: false, Dash: "1 3"));
        }
        lines = [.. lines.Where(l => l.Points.Any(p => double.IsFinite(p.Y)))];
        // Collections alone (a client that says nothing of its own, e.g. the in-memory one) make no breakdown.
        if (lines.All(l => l.Name.EndsWith(" GC", StringComparison.Ordinal))) return null;
        var values = lines.SelectMany(s => s.Points).Select(p => p.Y).Where(v => double.IsFinite(v) && v > 0).ToList();
        if (values.Count == 0) return null;
        double min = values.Min(), max = values.Max();
        bool log = max / min > 20;
        // A log axis cannot draw a zero (an interval without a collection): such an interval is a gap in its line, never
        // a segment joining its neighbours.
        if (log) lines = [.. lines.Select(s => s with { Points = [.. s.Points.Select(p => p.Y > 0 ? p : p with { Y = double.NaN })] })];
        string title = $"{Title(cell.Scenario)}: where the time went over time, {ChartFormat.Bytes(cell.PayloadBytes)}{(cell.Rate is { } r ? $" at {ChartFormat.Count(r)} msg/s" : string.Empty)}";
        return new ReportChart($"breakdown-time-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{suffix}", ChartKind.TimeSeries, title,
            Render(timeline, title, setting, log ? "milliseconds (log scale)" : "milliseconds", lines, log ? Axis.Log(min, max, ChartFormat.Short) : Axis.LinearFromZero(max * 1.05, ChartFormat.Short),
                "Each client's own figures per interval (median over the measured runs): solid, a request's round trip (network and broker); dashed, a record's wait in "
                + "the client before its request went out; dash-dot, a consumer's fetch round trip; dotted, milliseconds of the interval spent in collections (.NET's "
                + "pauses and the client's JVM). The clients average over their own 1 s windows; a gap: the client gave no figure"
                + (log ? " (or, for collections, none happened: a log axis has no zero)." : ".")));
    }

    private static List<RunRecord> Runs(List<RunRecord> happened, PlanCell cell, string client) =>
        [.. happened.Where(r => !r.IsWarmup && r.Succeeded && r.Client == client && r.Scenario == cell.Scenario && r.MessageCount == cell.MessageCount
            && r.PayloadBytes == cell.PayloadBytes && r.Variant == cell.Variant && r.OfferedRate == cell.Rate && r.Intervals is { Count: > 0 })];

    private static string NotRun(CellTimeline.Row row) => row.Runs.Count == 0 ? "no successful run" : "no data";

    private static string Render(CellTimeline timeline, string title, string subtitle, string yLabel, IReadOnlyList<XYChart.Series> lines, Axis y, string note)
    {
        return new XYChart
        {
            Title = title,
            Subtitle = subtitle,
            XLabel = timeline.XLabel,
            YLabel = yLabel,
            X = Axis.LinearFromZero(timeline.End, ChartFormat.Short),
            Y = y,
            Lines = lines,
            Note = note,
            Lanes = timeline.Lanes,
            Marks = timeline.Marks,
            Shade = timeline.Shade,
            Keys = timeline.Keys,
        }.Render();
    }

    private static string Suffix(PlanCell cell) =>
        (cell.Rate is { } rate ? string.Create(CultureInfo.InvariantCulture, $"-{rate:0.###}rps") : "-burst")
        + (cell.Variant == "defaults" ? string.Empty : $"-{ChartFormat.Slug(cell.Variant)}");

    private static string Title(ScenarioKind scenario) => scenario.ToString();

    private static string Name(ScenarioKind scenario) => scenario.ToString().ToLowerInvariant();
}
