using System.Globalization;
using HdrHistogram;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting.Charts;

/// <summary>Draws a result's charts as SVG: throughput by payload size per scenario, the candidate/baseline ratio
/// heat-map, and latency percentile curves per cell that measured latency. Pure functions of the result: no I/O.</summary>
/// <remarks>Latency curves come from the runs' histograms, merged per client and cell, when the result holds them (a
/// result fresh from a run); a result read back from JSON keeps only each cell's percentile summary, and its curves
/// go through those few percentiles.</remarks>
public static class ReportCharts
{
    // Points per decade of 1/(1 − p) on a latency curve: smooth, and a few hundred points per curve at most.
    private const int PointsPerDecade = 40;

    /// <summary>Every chart of <paramref name="result"/>, in the order a report shows them.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The charts; names are unique.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="result"/> is null.</exception>
    public static IReadOnlyList<ReportChart> For(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var charts = new List<ReportChart>();
        charts.AddRange(Throughput(result));
        if (Ratios(result) is { } ratios) charts.Add(ratios);
        charts.AddRange(Latency(result));
        charts.AddRange(TimeSeriesCharts.For(result));
        charts.AddRange(RateProbeCharts.For(result));
        if (BreakdownBars.For(result) is { } breakdown) charts.Add(breakdown);
        charts.AddRange(RateCurveCharts.For(result));

        // Two variant labels may slug alike; the second keeps its chart under a numbered name.
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < charts.Count; i++)
        {
            var name = charts[i].Name;
            for (int n = 2; !seen.Add(name); n++) name = $"{charts[i].Name}-{n}";
            charts[i] = charts[i] with { Name = name };
        }
        return charts;
    }

    private static IEnumerable<ReportChart> Throughput(BenchmarkResult result)
    {
        var plan = result.Plan;
        var measured = ChartRuns.Measured(result).ToList();
        foreach (var scenario in plan.Scenarios)
        {
            foreach (var variant in plan.SettingsVariants.Select(v => v.Describe()))
            {
                foreach (var messages in plan.MessageCounts)
                {
                    var cells = result.Cells.Where(c => c.Scenario == scenario && c.Variant == variant && c.MessageCount == messages).ToList();
                    // At a rate every client sends what the schedule says: the rate and latency charts say what differs, and a
                    // throughput chart per probe's message count (a rate search makes dozens) would say nothing.
                    if (cells.Count > 0 && cells.All(c => c.OfferedRate is not null)) continue;
                    // No chart for what never ran (a plan stopped before it, or a rate plan's burst frame): an empty frame
                    // would read as a measurement of nothing.
                    var ran = measured.Where(r => r.Scenario == scenario && r.Variant == variant && r.MessageCount == messages && r.OfferedRate is null).ToList();
                    if (ran.Count == 0) continue;
                    // Reference tools run only some scenarios: they get a line where they ran and no legend entry elsewhere.
                    // A size without a figure is a gap in the client's line, not a segment from its neighbours.
                    var series = plan.Clients.Select((client, index) => (client, index))
                        .Where(c => !plan.IsReference(c.client) || BenchmarkPlan.ReferencesRun(scenario))
                        .Select(c => (Client: c.client, Index: c.index, Label: Label(plan, c.client)))
                        .Select(c => new XYChart.Series(c.Label, c.Index,
                        [.. plan.PayloadSizes.Select(size => cells.FirstOrDefault(x => x.Client == c.Client && x.PayloadBytes == size) is { Runs: > 0 } x
                            ? new XYChart.Point(x.PayloadBytes, x.MessagesPerSecond.Median, x.MessagesPerSecond.Min, x.MessagesPerSecond.Max)
                            : new XYChart.Point(size, double.NaN))],
                        Markers: true, Whiskers: true, EmptyText: ran.Any(r => r.Client == c.Client) ? "no data" : "not run")).ToList();
                    int failed = cells.Sum(c => c.FailedRuns);
                    string title = $"{Title(scenario)} throughput by payload size";
                    var svg = ThroughputChart.Render(
                        title,
                        $"{ChartFormat.Messages(messages)} messages per run · settings: {variant} · {RunsText(plan)} per client and size",
                        [.. plan.PayloadSizes.Select(s => (long)s)],
                        series,
                        "Point: median of the measured runs; whisker: min to max. Warm-ups"
                            + (failed > 0 ? $" and {failed} failed run{(failed == 1 ? string.Empty : "s")} excluded." : " and failed runs excluded."));
                    yield return new ReportChart($"throughput-{Name(scenario)}{Suffix(plan, messages, variant)}", ChartKind.Throughput, title, svg);
                }
            }
        }
    }

    private static ReportChart? Ratios(BenchmarkResult result)
    {
        var plan = result.Plan;
        if (plan.Clients.Count < 2) return null;
        var baseline = plan.Clients[0];
        var candidates = plan.Clients.Skip(1).ToList();
        var rows = new List<RatioHeatMap.Row>();
        var measured = ChartRuns.Measured(result).ToList();
        // Throughput ratios of rate cells are the schedule's, 100 %: only bursts go in the heat-map, and only cells that ran.
        foreach (var cell in plan.Cells().Where(c => !c.IsRate))
        {
            if (!measured.Any(r => r.Scenario == cell.Scenario && r.MessageCount == cell.MessageCount && r.PayloadBytes == cell.PayloadBytes
                && r.Variant == cell.Variant && r.OfferedRate is null)) continue;
            var label = $"{Name(cell.Scenario)} · {ChartFormat.Bytes(cell.PayloadBytes)}"
                + (plan.MessageCounts.Count > 1 ? $" · {ChartFormat.Messages(cell.MessageCount)} msgs" : string.Empty)
                + (plan.SettingsVariants.Count > 1 ? $" · {cell.Variant}" : string.Empty);
            var entries = candidates.Select(candidate =>
            {
                if (!plan.ClientsFor(cell).Contains(candidate)) return new RatioHeatMap.Entry(double.NaN, "not run here");
                var c = result.Comparisons.FirstOrDefault(x => x.Candidate == candidate && x.Baseline == baseline && x.Scenario == cell.Scenario
                    && x.MessageCount == cell.MessageCount && x.PayloadBytes == cell.PayloadBytes && x.Variant == cell.Variant);
                if (c is null) return null;
                var m = c.MessagesPerSecond;
                // A verdict made mostly by the wait for the first record says so here too (the verdict table has the figures).
                return new RatioHeatMap.Entry(double.IsFinite(m.ShiftRatio) ? m.ShiftRatio : m.MeanRatio,
                    ReportFigures.Verdict(m.Verdict) + (c.MostlyStartUp && m.Verdict is Statistics.Verdict.Faster or Statistics.Verdict.Slower ? " · start-up" : string.Empty));
            }).ToList();
            rows.Add(new RatioHeatMap.Row(label, entries));
        }
        if (rows.Count == 0) return null;
        var first = result.Comparisons.Count > 0 ? result.Comparisons[0].MessagesPerSecond : null;
        var estimate = first is null || first.VerdictBasis == "shift"
            ? "Ratio: Hodges–Lehmann estimate over the measured runs (about the ratio of medians)"
            : "Ratio: ratio of the means of the measured runs";
        var confidence = first?.Confidence ?? 0.95;
        var tolerance = first?.Tolerance ?? plan.Tolerance;
        var constant = new List<string>();
        if (plan.MessageCounts.Count == 1) constant.Add($"{ChartFormat.Messages(plan.MessageCounts[0])} messages per run");
        if (plan.SettingsVariants.Count == 1) constant.Add($"settings: {plan.SettingsVariants[0].Describe()}");
        constant.Add($"{RunsText(plan)} per client and cell");
        const string title = "Throughput ratio against the baseline";
        var svg = RatioHeatMap.Render(
            $"{title} ({baseline})",
            string.Join(" · ", constant),
            baseline,
            [.. candidates.Select(c => Label(plan, c))],
            rows,
            string.Create(CultureInfo.InvariantCulture,
                $"{estimate}; verdict at {confidence * 100:0} % confidence, on par within ±{tolerance * 100:0.#} %."));
        return new ReportChart("ratios", ChartKind.Ratio, $"{title} ({baseline})", svg);
    }

    private static IEnumerable<ReportChart> Latency(BenchmarkResult result)
    {
        var plan = result.Plan;
        // A rate search's probes have their percentiles on its rate curve, all of a cell's on one chart.
        if (RateProbeCharts.IsSearch(result)) yield break;
        var measured = ChartRuns.Measured(result).ToList();
        foreach (var cell in plan.Cells())
        {
            var runs = plan.ClientsFor(cell);
            var curves = plan.Clients.Select((client, index) => (client, index)).Where(c => runs.Contains(c.client))
                .Select(c => new XYChart.Series(c.client, c.index, LatencyCurve(result, cell, c.client), Markers: false, Whiskers: false,
                    EmptyText: plan.IsReference(c.client) ? "reference tool, no latency"
                        : measured.Any(r => r.Client == c.client && r.Scenario == cell.Scenario && r.MessageCount == cell.MessageCount && r.PayloadBytes == cell.PayloadBytes
                            && r.Variant == cell.Variant && r.OfferedRate == cell.Rate) ? "no latency measured" : "not run")).ToList();
            if (curves.All(c => c.Points.Count == 0)) continue;
            string title = cell.Rate is { } rate
                ? $"{Title(cell.Scenario)} response time{DueKind(cell.Scenario)}, {ChartFormat.Bytes(cell.PayloadBytes)} payloads at {ChartFormat.Count(rate)} msg/s"
                : $"{Title(cell.Scenario)} latency{LatencyKind(cell.Scenario)}, {ChartFormat.Bytes(cell.PayloadBytes)} payloads";
            var svg = LatencyChart.Render(
                title,
                $"{ChartFormat.Messages(cell.MessageCount)} messages per run · settings: {cell.Variant} · the measured runs of each client merged",
                curves,
                "Curve: the latency within which p of the records arrived; its right end is the slowest record.");
            yield return new ReportChart(
                $"latency-{Name(cell.Scenario)}-{cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)}b{Suffix(plan, cell.MessageCount, cell.Variant, cell.Rate)}",
                ChartKind.Latency, title, svg);
        }
    }

    /// <summary>The client's curve in one cell: from the merged histograms of its measured, successful runs, else from
    /// the cell's percentile summary, else none.</summary>
    private static List<XYChart.Point> LatencyCurve(BenchmarkResult result, PlanCell cell, string client)
    {
        var merged = Histograms.Merge(result.Runs
            .Where(run => !run.IsWarmup && run.Succeeded && run.Client == client && run.Scenario == cell.Scenario && run.MessageCount == cell.MessageCount
                && run.PayloadBytes == cell.PayloadBytes && run.Variant == cell.Variant)
            .Select(run => run.LatencyHistogram));

        var points = new List<XYChart.Point>();
        if (merged is not null)
        {
            double decades = Math.Log10(merged.TotalCount);
            for (int i = 0; ; i++)
            {
                double d = Math.Min((double)i / PointsPerDecade, decades);
                double percent = 100 * (1 - Math.Pow(10, -d));
                points.Add(new XYChart.Point(percent, Math.Min(merged.GetValueAtPercentile(percent), merged.GetMaxValue()) / 1_000.0));
                if (d >= decades) break;
            }
            return points;
        }

        var summary = result.Cells.FirstOrDefault(c => c.Client == client && c.Scenario == cell.Scenario && c.MessageCount == cell.MessageCount
            && c.PayloadBytes == cell.PayloadBytes && c.Variant == cell.Variant)?.Latency;
        if (summary is null || summary.Count == 0) return points;
        foreach (var (percent, micros) in new[]
        {
            (0.0, summary.MinMicros), (50.0, summary.P50Micros), (90.0, summary.P90Micros), (95.0, summary.P95Micros),
            (99.0, summary.P99Micros), (99.9, summary.P999Micros), (99.99, summary.P9999Micros),
        })
        {
            if (double.IsFinite(micros) && LatencyChart.TailFactor(percent) <= summary.Count) points.Add(new XYChart.Point(percent, micros));
        }
        return points;
    }

    /// <summary>A client's name, marked when it is a reference tool rather than a .NET client.</summary>
    private static string Label(BenchmarkPlan plan, string client) => plan.IsReference(client) ? $"{client} (reference)" : client;

    /// <summary>What tells a chart from its siblings: the message count when there are several, or at several rates
    /// the rate (a rate cell's message count follows from it), then the settings variant when there are several.</summary>
    private static string Suffix(BenchmarkPlan plan, long messages, string variant, double? rate = null) =>
        (rate is { } r && plan.Rates.Count > 1 ? string.Create(CultureInfo.InvariantCulture, $"-{r:0.###}rps")
            : plan.MessageCounts.Count > 1 ? $"-{messages.ToString(CultureInfo.InvariantCulture)}msgs" : string.Empty)
        + (plan.SettingsVariants.Count > 1 ? $"-{ChartFormat.Slug(variant)}" : string.Empty);

    private static string RunsText(BenchmarkPlan plan) => plan.Repeat == 1 ? "1 measured run" : $"{plan.Repeat.ToString(CultureInfo.InvariantCulture)} measured runs";

    private static string LatencyKind(ScenarioKind scenario) => scenario switch
    {
        ScenarioKind.Produce => " (send → ack)",
        ScenarioKind.Roundtrip => " (produce → consume)",
        _ => string.Empty,
    };

    /// <summary>At a rate, latency runs from when each record was due.</summary>
    private static string DueKind(ScenarioKind scenario) => scenario switch
    {
        ScenarioKind.Produce => " (due → ack)",
        ScenarioKind.Roundtrip => " (due → consume)",
        _ => string.Empty,
    };

    private static string Title(ScenarioKind scenario) => scenario.ToString();

    private static string Name(ScenarioKind scenario) => scenario.ToString().ToLowerInvariant();
}
