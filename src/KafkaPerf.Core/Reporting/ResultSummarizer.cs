using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>Turns recorded runs into per-cell statistics and comparisons: pure functions, no I/O, no timing.</summary>
public static class ResultSummarizer
{
    /// <summary>Statistics of every client in every cell that has runs.</summary>
    /// <param name="plan">The plan (for the cell order and the client order).</param>
    /// <param name="runs">The recorded runs.</param>
    /// <returns>One entry per client and cell.</returns>
    public static IReadOnlyList<CellResult> Cells(BenchmarkPlan plan, IReadOnlyList<RunRecord> runs)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(runs);
        // The runs sorted into their cells in one pass, so that summing up costs the runs once, not once per cell.
        var byCell = new Dictionary<CellKey, List<RunRecord>>();
        foreach (var run in runs)
        {
            if (run.IsWarmup) continue;
            var key = new CellKey(run.Client, run.Scenario, run.MessageCount, run.PayloadBytes, run.Variant, run.OfferedRate);
            if (!byCell.TryGetValue(key, out var list)) byCell[key] = list = [];
            list.Add(run);
        }
        var cells = new List<CellResult>();
        foreach (var cell in plan.Cells())
        {
            foreach (var client in plan.Clients)
            {
                if (!byCell.TryGetValue(new CellKey(client, cell.Scenario, cell.MessageCount, cell.PayloadBytes, cell.Variant, cell.Rate), out var measured)) continue;
                var ok = measured.Where(r => r.Succeeded).ToList();
                cells.Add(new CellResult
                {
                    Scenario = cell.Scenario,
                    MessageCount = cell.MessageCount,
                    PayloadBytes = cell.PayloadBytes,
                    Variant = cell.Variant,
                    Client = client,
                    Runs = ok.Count,
                    FailedRuns = measured.Count - ok.Count,
                    ElapsedSeconds = SummaryOf(ok.Select(r => r.ElapsedSeconds)),
                    MessagesPerSecond = SummaryOf(ok.Select(r => r.MessagesPerSecond)),
                    MegabytesPerSecond = SummaryOf(ok.Select(r => r.MegabytesPerSecond)),
                    FirstRecordSeconds = SummaryOrNull(ok.Select(r => r.FirstRecordSeconds)),
                    MessagesPerSecondAfterFirst = SummaryOrNull(ok.Select(r => r.MessagesPerSecondAfterFirst)),
                    ElapsedSamples = [.. ok.Select(r => r.ElapsedSeconds)],
                    MessagesPerSecondSamples = [.. ok.Select(r => r.MessagesPerSecond)],
                    Latency = MergeLatency(ok.Select(r => r.LatencyHistogram)),
                    OfferedRate = cell.Rate,
                    AchievedRate = cell.IsRate ? SummaryOf(ok.Where(r => r.AchievedRate is not null).Select(r => r.AchievedRate!.Value)) : null,
                    ResponseTime = MergeLatency(ok.Select(r => r.ResponseTimeHistogram)),
                    ServiceTime = MergeLatency(ok.Select(r => r.ServiceTimeHistogram)),
                    SendDelay = MergeLatency(ok.Select(r => r.SendDelayHistogram)),
                    ResponseP99Samples = [.. ok.Where(r => r.ResponseTime is not null).Select(r => r.ResponseTime!.P99Micros)],
                    Resources = CellResources.Of(ok),
                    Lost = measured.Sum(r => r.Lost),
                    NotVerified = measured.Sum(r => r.NotVerified),
                    NotVerifiedRuns = measured.Count(r => !r.Verified),
                    Duplicates = measured.Sum(r => r.Duplicates),
                });
            }
        }
        return cells;
    }

    /// <summary>A whole result from the rest of one (plan, environment, clients, warnings, flags) and its runs: the cells
    /// summed up and compared once, every cell's histograms merged once.</summary>
    /// <param name="rest">The result's other parts; its runs, cells and comparisons are replaced.</param>
    /// <param name="runs">Every run of the result, in order; kept as given, so pass a list nobody adds to any more.</param>
    /// <returns>The result.</returns>
    public static BenchmarkResult Complete(BenchmarkResult rest, IReadOnlyList<RunRecord> runs)
    {
        ArgumentNullException.ThrowIfNull(rest);
        ArgumentNullException.ThrowIfNull(runs);
        var cells = Cells(rest.Plan, runs);
        return rest with { Runs = runs, Cells = cells, Comparisons = Comparisons(rest.Plan, cells) };
    }

    /// <summary>Each non-baseline client against the baseline (the plan's first client), per cell.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="cells">The cell statistics.</param>
    /// <returns>One entry per candidate and cell where both have successful runs.</returns>
    public static IReadOnlyList<CellComparison> Comparisons(BenchmarkPlan plan, IReadOnlyList<CellResult> cells)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(cells);
        var comparisons = new List<CellComparison>();
        if (plan.Clients.Count < 2) return comparisons;
        string baseline = plan.Clients[0];
        foreach (var b in cells.Where(c => c.Client == baseline && c.Runs > 0))
        {
            foreach (var a in cells.Where(c => c.Client != baseline && c.Runs > 0 && SameCell(c, b)))
                comparisons.Add(Compare(a, b, plan.Tolerance));
        }
        return comparisons;
    }

    /// <summary>Compares a candidate cell with a baseline cell.</summary>
    /// <param name="candidate">A.</param>
    /// <param name="baseline">B.</param>
    /// <param name="tolerance">Tolerance band of the on-par verdict.</param>
    /// <returns>The comparison.</returns>
    public static CellComparison Compare(CellResult candidate, CellResult baseline, double tolerance)
    {
        ArgumentNullException.ThrowIfNull(candidate);
        ArgumentNullException.ThrowIfNull(baseline);
        var comparison = new CellComparison
        {
            Scenario = candidate.Scenario,
            MessageCount = candidate.MessageCount,
            PayloadBytes = candidate.PayloadBytes,
            Variant = candidate.Variant,
            Candidate = candidate.Client,
            Baseline = baseline.Client,
            // From the runs when they are at hand (a verdict on the robust ratio), else from the summaries alone.
            ElapsedSeconds = candidate.ElapsedSamples.Count > 0 && baseline.ElapsedSamples.Count > 0
                ? Comparison.Of(candidate.ElapsedSamples, baseline.ElapsedSamples, MetricDirection.LowerIsBetter, tolerance)
                : Comparison.Of(candidate.ElapsedSeconds, baseline.ElapsedSeconds, MetricDirection.LowerIsBetter, tolerance),
            MessagesPerSecond = candidate.MessagesPerSecondSamples.Count > 0 && baseline.MessagesPerSecondSamples.Count > 0
                ? Comparison.Of(candidate.MessagesPerSecondSamples, baseline.MessagesPerSecondSamples, MetricDirection.HigherIsBetter, tolerance)
                : Comparison.Of(candidate.MessagesPerSecond, baseline.MessagesPerSecond, MetricDirection.HigherIsBetter, tolerance),
            LatencyP50RatioPercent = Ratio(candidate.Latency?.P50Micros, baseline.Latency?.P50Micros),
            LatencyP99RatioPercent = Ratio(candidate.Latency?.P99Micros, baseline.Latency?.P99Micros),
            OfferedRate = candidate.OfferedRate,
            // At a rate every client sends the same records in the same time: what differs is latency, compared run by run.
            ResponseTimeP99 = candidate.ResponseP99Samples.Count > 0 && baseline.ResponseP99Samples.Count > 0
                ? Comparison.Of(candidate.ResponseP99Samples, baseline.ResponseP99Samples, MetricDirection.LowerIsBetter, tolerance)
                : null,
        };
        var share = StartUp.Share(candidate, baseline);
        return comparison with { StartUpShare = share, MostlyStartUp = StartUp.Mostly(comparison.ElapsedSeconds.Verdict, share) };
    }

    /// <summary>What places a run in a cell of a client (exact on the offered rate, as the plan gave it to the run).</summary>
    private readonly record struct CellKey(string Client, ScenarioKind Scenario, long MessageCount, int PayloadBytes, string Variant, double? OfferedRate);

    private static bool SameCell(CellResult a, CellResult b) =>
        a.Scenario == b.Scenario && a.MessageCount == b.MessageCount && a.PayloadBytes == b.PayloadBytes && a.Variant == b.Variant
        && a.OfferedRate == b.OfferedRate;

    /// <summary>The summary of the values present; <see langword="null"/> when no run has one (a produce cell's first record).</summary>
    private static Summary? SummaryOrNull(IEnumerable<double?> samples) =>
        samples.OfType<double>().ToArray() is { Length: > 0 } values ? Summary.Of(values) : null;

    private static Summary SummaryOf(IEnumerable<double> samples)
    {
        var values = samples.ToArray();
        return values.Length == 0 ? Summary.Empty : Summary.Of(values);
    }

    // Percentiles are merged from histograms, never averaged across runs.
    private static LatencySummary? MergeLatency(IEnumerable<HdrHistogram.HistogramBase?> histograms)
    {
        var merged = Histograms.Merge(histograms);
        return merged is null ? null : LatencySummary.From(merged, unitsPerMicrosecond: 1000);
    }

    private static double? Ratio(double? a, double? b) =>
        a is { } x && b is { } y && y != 0 ? x / y * 100 : null;
}
