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
/// interval, so one slow run does not draw the line.
/// </summary>
internal static class TimeSeriesCharts
{
    public static IEnumerable<ReportChart> For(BenchmarkResult result)
    {
        var plan = result.Plan;
        foreach (var cell in plan.Cells())
        {
            var clients = plan.ClientsFor(cell).Select((client, index) => (Client: client, Index: plan.Clients.ToList().IndexOf(client)))
                .Select(c => (c.Client, c.Index, Runs: Runs(result, cell, c.Client))).ToList();
            if (clients.All(c => c.Runs.Count == 0)) continue;
            string what = cell.Scenario == ScenarioKind.Produce ? "acknowledged" : "consumed";
            string suffix = Suffix(cell);
            string setting = $"{ChartFormat.Bytes(cell.PayloadBytes)} payloads · settings: {cell.Variant}"
                + (cell.Rate is { } rate ? $" · offered {ChartFormat.Count(rate)} msg/s" : " · burst");

            // A run's last interval is usually a short tail (the drain after its last due time): a rate over a few
            // hundredths of a second would draw a collapse that never happened, so the rate lines leave it out.
            // One time axis for the cell's charts: to the end of its runs' last interval.
            double seriesEnd = clients.SelectMany(c => c.Runs).SelectMany(r => r.Intervals!).Select(i => i.StartSeconds + i.LengthSeconds).DefaultIfEmpty(1).Max();
            var rateLines = clients.Select(c => new XYChart.Series(c.Client, c.Index, Median(c.Runs, i => cell.Scenario == ScenarioKind.Produce ? i.AcknowledgedPerSecond : i.ConsumedPerSecond, fullOnly: true), Markers: false, Whiskers: false)).ToList();
            if (cell.Rate is { } offered)
            {
                rateLines.Add(new XYChart.Series("offered", plan.Clients.Count, [new(0, offered), new(seriesEnd, offered)], Markers: false, Whiskers: false, Dash: "4 4"));
            }
            double rateMax = rateLines.SelectMany(s => s.Points).Select(p => p.Y).Where(double.IsFinite).DefaultIfEmpty(1).Max();
            string title = $"{Title(cell.Scenario)} rate over time, {ChartFormat.Bytes(cell.PayloadBytes)}{(cell.Rate is { } r1 ? $" at {ChartFormat.Count(r1)} msg/s" : string.Empty)}";
            var bands = FaultBands(clients.SelectMany(c => c.Runs));
            string faultNote = bands.Count == 0 ? string.Empty : " Shaded: from each fault to the partition's new leader or the node's return (medians over the runs).";
            yield return new ReportChart($"rate-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{suffix}", ChartKind.TimeSeries, title,
                Render(title, setting, $"{what} msg/s", rateLines, Axis.LinearFromZero(rateMax * 1.1, ChartFormat.Count),
                    $"Each point: records {what} per interval (median over the measured runs). Intervals before the warm-up's end count in no figure; a run's short last interval (the drain) is not drawn.{faultNote}", bands, seriesEnd));

            bool rateCell = cell.Rate is not null;
            var latencyLines = new List<XYChart.Series>();
            foreach (var c in clients)
            {
                latencyLines.Add(new XYChart.Series($"{c.Client} p99", c.Index, Median(c.Runs, i => (rateCell ? i.ResponseTime : i.ServiceTime)?.P99Micros ?? double.NaN), Markers: false, Whiskers: false, Dash: string.Empty));
                latencyLines.Add(new XYChart.Series($"{c.Client} p50", c.Index, Median(c.Runs, i => (rateCell ? i.ResponseTime : i.ServiceTime)?.P50Micros ?? double.NaN), Markers: false, Whiskers: false, Dash: "3 3"));
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
                Render(latencyTitle, setting, log ? $"{kind} ({unit}, log scale)" : $"{kind} ({unit})", latencyLines,
                    log ? Axis.Log(min, max, ChartFormat.Short) : Axis.LinearFromZero(max * 1.05, ChartFormat.Short),
                    (rateCell
                        ? "Solid: p99, dashed: p50 of the records acknowledged or consumed in each interval, measured from when each was due (median over the measured runs)."
                        : "Solid: p99, dashed: p50 of the records acknowledged or consumed in each interval, measured from when each was sent (median over the measured runs).") + faultNote, bands, seriesEnd));

            if (Breakdown(clients.Select(c => (c.Client, c.Index, c.Runs)).ToList(), cell, setting, suffix, bands, faultNote, seriesEnd) is { } breakdown) yield return breakdown;
        }
    }

    /// <summary>Where the time went per interval: each client's queue (dashed), network and broker (solid) and
    /// collections (dotted: .NET's pauses and its JVM's collection time in the interval), in milliseconds; none when no
    /// run has a breakdown.</summary>
    private static ReportChart? Breakdown(List<(string Client, int Index, List<RunRecord> Runs)> clients, PlanCell cell, string setting, string suffix,
        IReadOnlyList<XYChart.Band> bands, string faultNote, double end)
    {
        static double Or(double? value) => value ?? double.NaN;
        var lines = new List<XYChart.Series>();
        foreach (var (client, index, runs) in clients)
        {
            var withBreakdown = runs.Where(r => r.Intervals!.Any(i => i.Breakdown is not null)).ToList();
            if (withBreakdown.Count == 0) continue;
            bool consumer = cell.Scenario != ScenarioKind.Produce;
            lines.Add(new XYChart.Series($"{client} network + broker", index, Median(withBreakdown, i => Or(i.Breakdown?.RequestMs)), Markers: false, Whiskers: false, Dash: string.Empty));
            lines.Add(new XYChart.Series($"{client} queue", index, Median(withBreakdown, i => Or(i.Breakdown?.QueueMs)), Markers: false, Whiskers: false, Dash: "6 3"));
            if (consumer) lines.Add(new XYChart.Series($"{client} fetch", index, Median(withBreakdown, i => Or(i.Breakdown?.FetchMs)), Markers: false, Whiskers: false, Dash: "10 3 2 3"));
            lines.Add(new XYChart.Series($"{client} GC", index, Median(withBreakdown, i => i.Breakdown is { } b ? (b.DotnetGcPauseMs ?? 0) + (b.RuntimeGcMs ?? 0) : double.NaN), Markers: false, Whiskers: false, Dash: "1 3"));
        }
        lines = [.. lines.Where(l => l.Points.Count > 0)];
        // Collections alone (a client that says nothing of its own, e.g. the in-memory one) make no breakdown.
        if (lines.All(l => l.Name.EndsWith(" GC", StringComparison.Ordinal))) return null;
        var values = lines.SelectMany(s => s.Points).Select(p => p.Y).Where(v => double.IsFinite(v) && v > 0).ToList();
        if (values.Count == 0) return null;
        double min = values.Min(), max = values.Max();
        bool log = max / min > 20;
        // A log axis cannot draw a zero (an interval without a collection): such points are left out of their line.
        if (log) lines = [.. lines.Select(s => s with { Points = [.. s.Points.Where(p => p.Y > 0)] })];
        string title = $"{Title(cell.Scenario)}: where the time went over time, {ChartFormat.Bytes(cell.PayloadBytes)}{(cell.Rate is { } r ? $" at {ChartFormat.Count(r)} msg/s" : string.Empty)}";
        return new ReportChart($"breakdown-time-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{suffix}", ChartKind.TimeSeries, title,
            Render(title, setting, log ? "milliseconds (log scale)" : "milliseconds", lines, log ? Axis.Log(min, max, ChartFormat.Short) : Axis.LinearFromZero(max * 1.05, ChartFormat.Short),
                "Each client's own figures per interval (median over the measured runs): solid, a request's round trip (network and broker); dashed, a record's wait in "
                + "the client before its request went out; dash-dot, a consumer's fetch round trip; dotted, milliseconds of the interval spent in collections (.NET's "
                + "pauses and the client's JVM). The clients average over their own 1 s windows. Same time axis as the charts above." + faultNote, bands, end));
    }

    private static List<RunRecord> Runs(BenchmarkResult result, PlanCell cell, string client) =>
        [.. result.Runs.Where(r => !r.IsWarmup && r.Succeeded && r.Client == client && r.Scenario == cell.Scenario && r.MessageCount == cell.MessageCount
            && r.PayloadBytes == cell.PayloadBytes && r.Variant == cell.Variant && r.OfferedRate == cell.Rate && r.Intervals is { Count: > 0 })];

    /// <summary>Per interval index, the median over the runs of a value, at the interval's middle; with
    /// <paramref name="fullOnly"/>, without the intervals shorter than half their run's first measured one.</summary>
    private static List<XYChart.Point> Median(List<RunRecord> runs, Func<IntervalRecord, double> value, bool fullOnly = false)
    {
        var points = new List<XYChart.Point>();
        int count = runs.Count == 0 ? 0 : runs.Max(r => r.Intervals!.Count);
        for (int i = 0; i < count; i++)
        {
            var at = runs.Where(r => i < r.Intervals!.Count && (!fullOnly || r.Intervals![i].LengthSeconds >= FullLength(r) / 2))
                .Select(r => r.Intervals![i]).ToList();
            if (at.Count == 0) continue;
            var values = at.Select(value).Where(double.IsFinite).Order().ToList();
            if (values.Count == 0) continue;
            double median = values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
            double middle = at.Average(x => x.StartSeconds + (x.LengthSeconds / 2));
            points.Add(new XYChart.Point(middle, median));
        }
        return points;
    }

    /// <summary>Per fault of the runs: from its median firing time to the latest of the clients' median new-leader or
    /// node-back times.</summary>
    private static List<XYChart.Band> FaultBands(IEnumerable<RunRecord> runs)
    {
        var bands = new List<XYChart.Band>();
        foreach (var fault in runs.SelectMany(r => (r.Faults ?? []).Select(f => (r.Client, Fault: f))).Where(x => x.Fault.FiredAtSeconds is not null).GroupBy(x => x.Fault.Fault))
        {
            double from = Statistics.Summary.Of(fault.Select(x => x.Fault.FiredAtSeconds!.Value)).Median;
            double to = fault.GroupBy(x => x.Client).Select(c =>
            {
                var ends = c.Select(x => Math.Max(x.Fault.FiredAtSeconds!.Value + (x.Fault.ElectionSeconds ?? 0), x.Fault.BackAtSeconds ?? 0)).ToList();
                return Statistics.Summary.Of(ends).Median;
            }).DefaultIfEmpty(from).Max();
            bands.Add(new XYChart.Band(from, to, fault.Key));
        }
        return bands;
    }

    /// <summary>A run's interval length: its first measured interval's (the warm-up is one interval of its own length).</summary>
    private static double FullLength(RunRecord run) => (run.Intervals!.FirstOrDefault(i => !i.Warmup) ?? run.Intervals![0]).LengthSeconds;

    private static string Render(string title, string subtitle, string yLabel, IReadOnlyList<XYChart.Series> lines, Axis y, string note, IReadOnlyList<XYChart.Band> bands, double end)
    {
        return new XYChart
        {
            Title = title,
            Subtitle = subtitle,
            XLabel = "seconds from the first record's due time",
            YLabel = yLabel,
            X = Axis.LinearFromZero(end, ChartFormat.Short),
            Y = y,
            Lines = lines,
            Note = note,
            Bands = bands,
        }.Render();
    }

    private static string Suffix(PlanCell cell) =>
        (cell.Rate is { } rate ? string.Create(CultureInfo.InvariantCulture, $"-{rate:0.###}rps") : "-burst")
        + (cell.Variant == "defaults" ? string.Empty : $"-{ChartFormat.Slug(cell.Variant)}");

    private static string Title(ScenarioKind scenario) => scenario.ToString();

    private static string Name(ScenarioKind scenario) => scenario.ToString().ToLowerInvariant();
}
