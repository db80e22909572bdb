using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>
/// The time series of load cells: per cell, the achieved rate per interval of every client beside the offered rate,
/// and the p50 and p99 latency per interval (response time at a rate, service time for a burst). Each point is the
/// median over the client's measured, successful runs of that interval, so one slow run does not draw the line.
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
            var rateLines = clients.Select(c => new XYChart.Series(c.Client, c.Index, Median(c.Runs, i => cell.Scenario == ScenarioKind.Produce ? i.AcknowledgedPerSecond : i.ConsumedPerSecond, fullOnly: true), Markers: false, Whiskers: false)).ToList();
            if (cell.Rate is { } offered)
            {
                double end = clients.SelectMany(c => c.Runs).SelectMany(r => r.Intervals!).Select(i => i.StartSeconds + i.LengthSeconds).DefaultIfEmpty(1).Max();
                rateLines.Add(new XYChart.Series("offered", plan.Clients.Count, [new(0, offered), new(end, offered)], Markers: false, Whiskers: false, Dash: "4 4"));
            }
            double rateMax = rateLines.SelectMany(s => s.Points).Select(p => p.Y).Where(double.IsFinite).DefaultIfEmpty(1).Max();
            string title = $"{Title(cell.Scenario)} rate over time, {ChartFormat.Bytes(cell.PayloadBytes)}{(cell.Rate is { } r1 ? $" at {ChartFormat.Count(r1)} msg/s" : string.Empty)}";
            var bands = FaultBands(clients.SelectMany(c => c.Runs));
            string faultNote = bands.Count == 0 ? string.Empty : " Shaded: from each fault to the partition's new leader or the node's return (medians over the runs).";
            yield return new ReportChart($"rate-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{suffix}", ChartKind.TimeSeries, title,
                Render(title, setting, $"{what} msg/s", rateLines, Axis.LinearFromZero(rateMax * 1.1, ChartFormat.Count),
                    $"Each point: records {what} per interval (median over the measured runs). Intervals before the warm-up's end count in no figure; a run's short last interval (the drain) is not drawn.{faultNote}", bands));

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
                        : "Solid: p99, dashed: p50 of the records acknowledged or consumed in each interval, measured from when each was sent (median over the measured runs).") + faultNote, bands));
        }
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

    private static string Render(string title, string subtitle, string yLabel, IReadOnlyList<XYChart.Series> lines, Axis y, string note, IReadOnlyList<XYChart.Band> bands)
    {
        double end = lines.SelectMany(s => s.Points).Select(p => p.X).Where(double.IsFinite).DefaultIfEmpty(1).Max();
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
