using System.Globalization;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>
/// The sustainable-rate search's curves: per cell, each client's p50 and p99 response time against the offered rate of
/// every probe, beside the goals' limits - where each client's latency turns up.
/// </summary>
internal static class RateCurveCharts
{
    public static IEnumerable<ReportChart> For(BenchmarkResult result)
    {
        if (result.RateSearches is not { Count: > 0 } searches) yield break;
        var clients = result.Plan.Clients;
        foreach (var cell in searches.GroupBy(s => (s.Scenario, s.PayloadBytes, s.Variant)))
        {
            var lines = new List<XYChart.Series>();
            foreach (var search in cell)
            {
                int index = Math.Max(0, clients.ToList().IndexOf(search.Client));
                // A probe without a response time (nothing acknowledged, or every run failed) is a gap in the curve, not a
                // segment from its neighbours.
                var probes = search.Probes.OrderBy(p => p.OfferedRate).ToList();
                lines.Add(new XYChart.Series($"{search.Client} p99", index, [.. probes.Select(p => new XYChart.Point(p.OfferedRate, p.ResponseTime is { Count: > 0 } r ? r.P99Micros : double.NaN))], Markers: true, Whiskers: false, Dash: string.Empty));
                lines.Add(new XYChart.Series($"{search.Client} p50", index, [.. probes.Select(p => new XYChart.Point(p.OfferedRate, p.ResponseTime is { Count: > 0 } r ? r.P50Micros : double.NaN))], Markers: true, Whiskers: false, Dash: "3 3"));
            }
            // No probe measured a response time (a client without delivery reports): a chart of the goal alone is no chart.
            if (!lines.Any(l => l.Points.Any(p => double.IsFinite(p.Y)))) continue;
            var rates = lines.SelectMany(l => l.Points).Select(p => p.X).Where(x => x > 0).DefaultIfEmpty(1).ToList();
            var goals = cell.First().Goals;
            var limits = goals.Select(g => (Goal: g, Micros: Limit(g))).Where(g => g.Micros > 0).ToList();
            foreach (var (goal, micros) in limits)
                lines.Add(new XYChart.Series($"goal {goal}", clients.Count + 1, [new(rates.Min(), micros), new(rates.Max(), micros)], Markers: false, Whiskers: false, Dash: "6 3"));
            var values = lines.SelectMany(l => l.Points).Select(p => p.Y).Where(v => double.IsFinite(v) && v > 0).ToList();
            if (values.Count == 0) continue;
            bool millis = values.Max() >= 2_000;
            double scale = millis ? 1_000 : 1;
            lines = [.. lines.Select(l => l with { Points = [.. l.Points.Select(p => p with { Y = p.Y / scale })] })];
            // Each client's answer, where the search ended: a vertical line at the highest rate that held.
            double low = values.Min() / scale, high = values.Max() / scale;
            foreach (var search in cell.Where(s => s.HighestHeld is > 0))
            {
                int index = Math.Max(0, clients.ToList().IndexOf(search.Client));
                double held = search.HighestHeld!.Value;
                lines.Add(new XYChart.Series(string.Create(CultureInfo.InvariantCulture, $"{search.Client} held {held:N0} msg/s"), index,
                    [new(held, low), new(held, high)], Markers: false, Whiskers: false, Dash: "1 4"));
            }
            var (scenario, size, variant) = cell.Key;
            string title = $"{scenario} response time against offered rate, {ChartFormat.Bytes(size)}";
            var svg = new XYChart
            {
                Title = title,
                Subtitle = $"goal: {string.Join(", ", goals)} · settings: {variant} · each point one probe (its runs merged)",
                XLabel = "offered rate (msg/s, log scale)",
                YLabel = $"response time ({(millis ? "ms" : "µs")}, log scale)",
                X = Axis.Log(rates.Min(), rates.Max(), ChartFormat.Count),
                Y = Axis.Log(values.Min() / scale, values.Max() / scale, ChartFormat.Short),
                Lines = lines,
                Note = "Solid: p99, dashed: p50 of response time (from when each record was due); dotted, upright: each client's highest rate that held - the last probe under every goal whose achieved rate stayed within 1 % of the offered one.",
            }.Render();
            yield return new ReportChart($"rate-curve-{scenario.ToString().ToLowerInvariant()}-{size.ToString(CultureInfo.InvariantCulture)}b{(variant == "defaults" ? string.Empty : "-" + ChartFormat.Slug(variant))}",
                ChartKind.RateCurve, title, svg);
        }
    }

    /// <summary>A goal's limit in microseconds, from its text (<c>p99&lt;20ms</c>).</summary>
    private static double Limit(string goal)
    {
        int less = goal.IndexOf('<', StringComparison.Ordinal);
        if (less < 0) return 0;
        try
        {
            return Plans.LatencyGoal.ParseList(goal)[0].Limit.TotalMicroseconds;
        }
        catch (Plans.PlanValidationException)
        {
            return 0;
        }
    }
}
