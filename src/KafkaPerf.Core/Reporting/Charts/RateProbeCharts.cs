using System.Globalization;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>
/// A rate search's probes over time: per cell one chart with every probe of every client on it - each probe's p99
/// response time per interval, on the time axis all probes share (seconds from a probe's first record's due time),
/// labelled at its end with its offered rate, solid where the probe held and dashed where it failed - instead of a rate,
/// a latency and a breakdown chart per probe (a search at 10k msg/s made 29 files). Beside
/// <see cref="RateCurveCharts"/>, which puts each probe's p50 and p99 against its rate, it shows how each probe got
/// there: a p99 that climbs through the probe (a queue that grows) against one spike.
/// </summary>
internal static class RateProbeCharts
{
    /// <summary>Whether <paramref name="result"/> is a rate search's (its plan's rates are the probes').</summary>
    public static bool IsSearch(BenchmarkResult result) => result.Plan.SearchedRuns is not null || result.RateSearches is { Count: > 0 };

    public static IEnumerable<ReportChart> For(BenchmarkResult result)
    {
        if (!IsSearch(result)) yield break;
        var clients = result.Plan.Clients.ToList();
        var measured = ChartRuns.Measured(result).Where(r => r.Succeeded && r.OfferedRate is not null && r.Intervals is { Count: > 0 }).ToList();
        foreach (var cell in measured.GroupBy(r => (r.Scenario, r.PayloadBytes, r.Variant)).OrderBy(g => g.Key.Scenario).ThenBy(g => g.Key.PayloadBytes))
        {
            var (scenario, size, variant) = cell.Key;
            var rows = new List<(CellTimeline.Row Row, double Rate, bool? Held)>();
            foreach (var client in cell.GroupBy(r => r.Client).OrderBy(g => clients.IndexOf(g.Key)))
            {
                int index = Math.Max(0, clients.IndexOf(client.Key));
                var search = result.RateSearches?.FirstOrDefault(s => s.Client == client.Key && s.Scenario == scenario && s.PayloadBytes == size && s.Variant == variant);
                foreach (var probe in client.GroupBy(r => r.OfferedRate!.Value).OrderBy(g => g.Key))
                {
                    bool? held = search?.Probes.FirstOrDefault(p => p.OfferedRate == probe.Key)?.Held;
                    rows.Add((new CellTimeline.Row($"{client.Key} {ChartFormat.Count(probe.Key)}", index, [.. probe]), probe.Key, held));
                }
            }
            var timeline = new CellTimeline([.. rows.Select(r => r.Row)], scenario);
            var lines = rows.Select(r => new XYChart.Series($"{r.Row.Name} p99", r.Row.Index, CellTimeline.Line(r.Row.Runs, i => i.ResponseTime?.P99Micros ?? double.NaN),
                Markers: false, Whiskers: false, Dash: r.Held == false ? "6 3" : string.Empty) { InLegend = false, EndLabel = ChartFormat.Count(r.Rate) }).ToList();
            var values = lines.SelectMany(s => s.Points).Select(p => p.Y).Where(v => double.IsFinite(v) && v > 0).ToList();
            if (values.Count == 0) continue;
            bool millis = values.Max() >= 2_000;
            double scale = millis ? 1_000 : 1;
            lines = [.. lines.Select(s => s with { Points = [.. s.Points.Select(p => p with { Y = p.Y / scale })] })];
            double min = values.Min() / scale, max = values.Max() / scale;
            bool log = max / min > 20;
            var keys = new List<XYChart.Key>();
            foreach (var index in rows.Select(r => r.Row.Index).Distinct())
            {
                string client = clients[index];
                if (rows.Any(r => r.Row.Index == index && r.Held != false)) keys.Add(new XYChart.Key($"{client}: a probe that held", null, ChartTheme.ColourOf(index)));
                if (rows.Any(r => r.Row.Index == index && r.Held == false)) keys.Add(new XYChart.Key($"{client}: a probe that failed", null, ChartTheme.ColourOf(index), "6 3"));
            }
            var goals = result.RateSearches?.FirstOrDefault(s => s.Scenario == scenario && s.PayloadBytes == size && s.Variant == variant)?.Goals;
            string title = $"{scenario} response time over each probe, {ChartFormat.Bytes(size)}";
            string unit = millis ? "ms" : "µs";
            var svg = new XYChart
            {
                Title = title,
                Subtitle = (goals is { Count: > 0 } ? $"goal: {string.Join(", ", goals)} · " : string.Empty)
                    + $"settings: {variant} · {rows.Count} probe{(rows.Count == 1 ? string.Empty : "s")}, each line one probe's p99 per interval, labelled with its offered rate (msg/s)",
                XLabel = timeline.XLabel.Replace("the first record's", "each probe's first record's", StringComparison.Ordinal),
                YLabel = log ? $"response time p99 ({unit}, log scale)" : $"response time p99 ({unit})",
                X = Axis.LinearFromZero(timeline.End, ChartFormat.Short),
                Y = log ? Axis.Log(min, max, ChartFormat.Short) : Axis.LinearFromZero(max * 1.05, ChartFormat.Short),
                Lines = lines,
                Keys = [.. keys, .. timeline.Keys],
                Lanes = timeline.Lanes,
                Marks = timeline.Marks,
                Shade = timeline.Shade,
                Note = "Each point: the p99 response time (from when each record was due) of the records acknowledged or consumed in the interval, the median over the probe's runs; "
                    + "an interval in which none was has no figure, and its line breaks there.",
            }.Render();
            yield return new ReportChart($"probes-{scenario.ToString().ToLowerInvariant()}-{size.ToString(CultureInfo.InvariantCulture)}b{(variant == "defaults" ? string.Empty : "-" + ChartFormat.Slug(variant))}",
                ChartKind.TimeSeries, title, svg);
        }
    }
}
