using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.History;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Testing;

/// <summary>
/// Assertions on a <see cref="BenchmarkResult"/>, for performance tests in any test framework: a failure throws
/// <see cref="PerformanceAssertionException"/> whose message shows the measured statistics as a table.
/// </summary>
/// <remarks>Each assertion looks at every cell (client × scenario × messages × payload × settings) that matches the
/// optional filters, and fails if any of them misses; a filter that matches nothing fails too, so a typo cannot pass.</remarks>
public static class PerformanceAssert
{
    /// <summary>Every matching cell's median throughput is at least <paramref name="messagesPerSecond"/>.</summary>
    public static void ThroughputAtLeast(BenchmarkResult result, double messagesPerSecond, string? client = null, ScenarioKind? scenario = null) =>
        Check(result, client, scenario, c => c.MessagesPerSecond.Median >= messagesPerSecond,
            string.Create(CultureInfo.InvariantCulture, $"a median throughput of at least {messagesPerSecond:N0} msg/s"));

    /// <summary>Every matching cell's median throughput is at least <paramref name="megabytesPerSecond"/> MB/s (10^6 payload bytes a second).</summary>
    public static void MegabytesPerSecondAtLeast(BenchmarkResult result, double megabytesPerSecond, string? client = null, ScenarioKind? scenario = null) =>
        Check(result, client, scenario, c => c.MegabytesPerSecond.Median >= megabytesPerSecond,
            string.Create(CultureInfo.InvariantCulture, $"a median throughput of at least {megabytesPerSecond:0.##} MB/s"));

    /// <summary>Every matching cell that measured latency has its <paramref name="percentile"/> (50, 99, 99.9 …) at most <paramref name="max"/>.</summary>
    public static void LatencyAtMost(BenchmarkResult result, double percentile, TimeSpan max, string? client = null, ScenarioKind? scenario = null)
    {
        double limit = max.TotalMicroseconds;
        Check(result, client, scenario, c => c.Latency is null || Percentile(c.Latency, percentile) <= limit,
            string.Create(CultureInfo.InvariantCulture, $"a p{percentile} latency of at most {limit:N0} µs"),
            requireLatency: true);
    }

    /// <summary>Every matching rate cell has its <paramref name="percentile"/> (50, 99, 99.9 …) of response time - measured
    /// from when each record was due, so a stall of the client or the broker counts - at most <paramref name="max"/>.</summary>
    public static void ResponseTimeAtMost(BenchmarkResult result, double percentile, TimeSpan max, string? client = null, ScenarioKind? scenario = null)
    {
        double limit = max.TotalMicroseconds;
        ArgumentNullException.ThrowIfNull(result);
        if (!result.Cells.Any(c => c.ResponseTime is not null && (client is null || c.Client == client) && (scenario is null || c.Scenario == scenario)))
            throw new PerformanceAssertionException("No matching cell measured response time: it is measured at a rate (the plan's Rates, --rate).");
        Check(result, client, scenario, c => c.ResponseTime is null || Percentile(c.ResponseTime, percentile) <= limit,
            string.Create(CultureInfo.InvariantCulture, $"a p{percentile} response time of at most {limit:N0} µs"));
    }

    /// <summary>Every matching rate cell's median run sent at least <paramref name="fraction"/> of the offered rate (0.99: the
    /// schedule was kept within 1 %).</summary>
    public static void AchievedRateAtLeast(BenchmarkResult result, double fraction = 0.99, string? client = null, ScenarioKind? scenario = null) =>
        Check(result, client, scenario, c => c.OfferedRate is not { } offered || (c.AchievedRate is { } achieved && achieved.Median >= offered * fraction),
            string.Create(CultureInfo.InvariantCulture, $"an achieved rate of at least {fraction * 100:0.#} % of the offered one"));

    /// <summary>No run of any matching cell lost, duplicated or failed a record, and no run failed. A run whose read could not
    /// account for every record (<em>not verified</em>: the read stopped before their offsets) fails it with that reason,
    /// not with a count of lost records: nothing is known of those records.</summary>
    public static void NoLossOrDuplicates(BenchmarkResult result, string? client = null, ScenarioKind? scenario = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        var open = result.Runs.Where(r => !r.IsWarmup && !r.Verified && (client is null || r.Client == client) && (scenario is null || r.Scenario == scenario)).ToList();
        if (open.Count > 0)
        {
            throw new PerformanceAssertionException(
                $"Expected every record accounted for; {open.Count} run(s) could not be verified - their records are neither known to be lost nor seen:"
                + string.Concat(open.Select(r => string.Create(CultureInfo.InvariantCulture,
                    $"{Environment.NewLine}- run {r.Sequence} ({r.Client} {r.Scenario.ToString().ToLowerInvariant()} {r.MessageCount} × {r.PayloadBytes} B): not verified: {r.NotVerifiedReason}"))));
        }
        Check(result, client, scenario, c => c.Lost == 0 && c.Duplicates == 0 && c.FailedRuns == 0, "no lost or duplicated record and no failed run");
    }

    /// <summary>
    /// The candidate is not slower than the baseline by more than <paramref name="percent"/> % with 95 % confidence, in
    /// every cell of one plan that measured both: it fails when the interval of the robust ratio of elapsed times lies
    /// wholly above 1 + percent/100. Needs repeated runs (at least 4 a side), never one.
    /// </summary>
    public static void NotSlowerThan(BenchmarkResult result, string candidate, string baseline, double percent, ScenarioKind? scenario = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        var cells = result.Cells.Where(c => c.Client == candidate && (scenario is null || c.Scenario == scenario)).ToList();
        if (cells.Count == 0)
            throw new PerformanceAssertionException($"No cell of client '{candidate}'{(scenario is null ? string.Empty : $" and scenario {scenario}")} in the result: clients are {string.Join(", ", result.Plan.Clients)}.");
        var failures = new List<string>();
        var rows = new List<(CellResult Cell, Comparison? Comparison)>();
        foreach (var cell in cells)
        {
            var other = result.Cells.FirstOrDefault(b => b.Client == baseline && b.Scenario == cell.Scenario && b.MessageCount == cell.MessageCount
                && b.PayloadBytes == cell.PayloadBytes && b.Variant == cell.Variant)
                ?? throw new PerformanceAssertionException($"Client '{baseline}' has no cell beside '{candidate}' {Describe(cell)}: run both in one plan.");
            if (cell.ElapsedSamples.Count < 4 || other.ElapsedSamples.Count < 4)
                throw new PerformanceAssertionException(
                    $"{Describe(cell)}: {cell.ElapsedSamples.Count} and {other.ElapsedSamples.Count} successful runs; a comparison needs at least 4 a side (.Repeat(10) or more).");
            var comparison = Comparison.Of(cell.ElapsedSamples, other.ElapsedSamples, MetricDirection.LowerIsBetter);
            rows.Add((cell, comparison));
            rows.Add((other, null));
            if (comparison.ShiftRatioLow > 1 + (percent / 100))
                failures.Add(string.Create(CultureInfo.InvariantCulture,
                    $"{Describe(cell)}: '{candidate}' is {ReportFigures.Percent(comparison.ShiftRatio - 1)} % slower than '{baseline}' (95 % interval {ReportFigures.Percent(comparison.ShiftRatioLow - 1)} to {ReportFigures.Percent(comparison.ShiftRatioHigh - 1)} %), beyond the {percent:0.#} % allowed"));
        }
        if (failures.Count > 0)
            throw new PerformanceAssertionException(string.Join(Environment.NewLine, failures) + Environment.NewLine + Environment.NewLine + Table(rows));
    }

    /// <summary>
    /// No cell of <paramref name="result"/> is slower than its history in a results store by more than
    /// <paramref name="percent"/> % with 95 % confidence: each cell against the last <paramref name="last"/> comparable
    /// stored results (same cell, same environment class; each counts once, by its median), as
    /// <c>dotnet kafkaperf compare --against-history</c> judges. A cell with fewer than 3 such results is not judged
    /// (a new plan builds its history first); store the result afterwards (<c>KafkaBenchmark…Store(…)</c>) to grow it.
    /// </summary>
    /// <param name="result">The new result.</param>
    /// <param name="store">The store: a SQLite file, <c>postgres</c> or <c>postgres:FILE</c>.</param>
    /// <param name="percent">The allowed slowdown, e.g. 10.</param>
    /// <param name="last">How many past results per cell.</param>
    /// <param name="label">Only past results stored with this label, when given.</param>
    /// <returns>The judgements, for a test that wants to say more.</returns>
    public static async Task<IReadOnlyList<HistoryJudgement>> NotSlowerThanHistoryAsync(BenchmarkResult result, string store, double percent, int last = 10, string? label = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        var opened = await ResultStore.OpenAsync(StoreLocation.Parse(store)).ConfigureAwait(false);
        var judgements = await HistoryGateQuery.JudgeAsync(opened, result, new HistoryScope(last, Label: label)).ConfigureAwait(false);
        var slower = judgements.Where(j => j.IsSlowerBeyond(percent)).ToList();
        if (slower.Count > 0)
        {
            throw new PerformanceAssertionException(string.Join(Environment.NewLine, slower.Select(j => string.Create(CultureInfo.InvariantCulture,
                $"{j.Cell.Describe()}: slower than its last {j.HistoryResults} stored results by {ReportFigures.Percent(j.Ratio - 1)} % in {j.Cell.Metric} (95 % interval {ReportFigures.Percent(j.Low - 1)} to {ReportFigures.Percent(j.High - 1)} %), beyond the {percent:0.#} % allowed"))));
        }
        return judgements;
    }

    private static void Check(BenchmarkResult result, string? client, ScenarioKind? scenario, Func<CellResult, bool> passes, string expectation, bool requireLatency = false)
    {
        ArgumentNullException.ThrowIfNull(result);
        var cells = result.Cells.Where(c => (client is null || c.Client == client) && (scenario is null || c.Scenario == scenario)).ToList();
        if (cells.Count == 0)
            throw new PerformanceAssertionException($"No cell matches (client {client ?? "any"}, scenario {scenario?.ToString() ?? "any"}): clients are {string.Join(", ", result.Plan.Clients)}.");
        if (requireLatency && cells.All(c => c.Latency is null))
            throw new PerformanceAssertionException("No matching cell measured latency (produce needs a client with per-record acknowledgements; roundtrip always measures it).");
        var failed = cells.Where(c => !passes(c)).ToList();
        if (failed.Count == 0) return;
        throw new PerformanceAssertionException(
            $"Expected {expectation}; {failed.Count} of {cells.Count} cells missed it:" + Environment.NewLine + Environment.NewLine + Table(failed.Select(c => (c, (Comparison?)null))));
    }

    private static double Percentile(LatencySummary latency, double percentile) => percentile switch
    {
        50 => latency.P50Micros,
        90 => latency.P90Micros,
        95 => latency.P95Micros,
        99 => latency.P99Micros,
        99.9 => latency.P999Micros,
        99.99 => latency.P9999Micros,
        100 => latency.MaxMicros,
        _ => throw new ArgumentOutOfRangeException(nameof(percentile), percentile, "Use 50, 90, 95, 99, 99.9, 99.99 or 100."),
    };

    private static string Describe(CellResult c) =>
        string.Create(CultureInfo.InvariantCulture, $"{c.Scenario.ToString().ToLowerInvariant()} {c.MessageCount} × {c.PayloadBytes} B{(c.OfferedRate is { } rate ? $" at {rate:0.###} msg/s" : string.Empty)} ({c.Variant})");

    /// <summary>The measured statistics of the cells, in the figures of the run report's per-client table, and the
    /// robust ratio against the baseline where one was compared.</summary>
    private static string Table(IEnumerable<(CellResult Cell, Comparison? Comparison)> rows)
    {
        var table = new ReportTable(
            [Left("client"), Left("cell"), Right("runs"), Right("failed"), Right("median s"), Right("CV %"), Right("median msg/s"), Right("median MB/s"),
             Right("p50 µs"), Right("p99 µs"), Right("lost"), Right("dup"), Left("robust ratio % (95 % CI)")],
            rows.Select(string[] (row) =>
            {
                var (c, comparison) = row;
                return
                [
                    c.Client, Describe(c), Count(c.Runs), Count(c.FailedRuns), Value(c.ElapsedSeconds.Median, "0.000000"), Percent(c.ElapsedSeconds.CoefficientOfVariation),
                    Value(c.MessagesPerSecond.Median, "0"), Value(c.MegabytesPerSecond.Median), Value(c.Latency?.P50Micros, "0.0"), Value(c.Latency?.P99Micros, "0.0"),
                    Count(c.Lost), Count(c.Duplicates),
                    comparison is null ? "–" : $"{Percent(comparison.ShiftRatio)} ({Percent(comparison.ShiftRatioLow)}–{Percent(comparison.ShiftRatioHigh)})",
                ];
            }));
        using var text = new StringWriter(CultureInfo.InvariantCulture) { NewLine = "\n" };
        MarkdownExporter.WriteTable(table, text);
        return text.ToString();
    }
}
