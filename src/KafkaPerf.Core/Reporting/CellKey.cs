using System.Globalization;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting;

/// <summary>One cell of a plan as results over time know it: the same client, scenario, messages, payload size, settings
/// variant and offered rate (none for a burst). Two results measured the same cell when their keys are equal.</summary>
/// <param name="Client">The client.</param>
/// <param name="Scenario">The scenario.</param>
/// <param name="MessageCount">Messages per run.</param>
/// <param name="PayloadBytes">Payload size.</param>
/// <param name="Variant">The settings variant.</param>
/// <param name="OfferedRate">The offered rate of a rate cell; <see langword="null"/> for a burst.</param>
public sealed record CellKey(string Client, ScenarioKind Scenario, long MessageCount, int PayloadBytes, string Variant, double? OfferedRate)
{
    /// <summary>What a cell's runs are judged on: <c>elapsed s</c> (bursts) or <c>p99 response µs</c> (rates).</summary>
    public string Metric => OfferedRate is null ? "elapsed s" : "p99 response µs";

    /// <summary>The key as one line of text, stable across versions: what a results store indexes.</summary>
    public string Text => string.Create(CultureInfo.InvariantCulture,
        $"{Client}|{Scenario.ToString().ToLowerInvariant()}|{MessageCount}|{PayloadBytes}|{Variant}|{(OfferedRate is { } rate ? rate.ToString("R", CultureInfo.InvariantCulture) : "burst")}");

    /// <summary>How people read the cell: <c>confluent produce 10000 × 1024 B at 2000 msg/s (default)</c>.</summary>
    public string Describe() => string.Create(CultureInfo.InvariantCulture,
        $"{Client} {Scenario.ToString().ToLowerInvariant()} {MessageCount} × {PayloadBytes} B{(OfferedRate is { } rate ? $" at {rate:0.###} msg/s" : string.Empty)} ({Variant})");

    /// <summary>Every cell a result measured, with the value of each of its successful measured runs on <see cref="Metric"/>:
    /// elapsed seconds for a burst, p99 response time for a rate (every run of a rate lasts the same; latency differs).</summary>
    /// <param name="result">The result.</param>
    /// <returns>The cells in the result's order; a cell whose runs all failed has no values.</returns>
    public static IReadOnlyDictionary<CellKey, IReadOnlyList<double>> CellsOf(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var cells = new Dictionary<CellKey, List<double>>();
        var order = new List<CellKey>();
        foreach (var run in result.Runs)
        {
            if (run.IsWarmup) continue;
            var key = new CellKey(run.Client, run.Scenario, run.MessageCount, run.PayloadBytes, run.Variant, run.OfferedRate);
            if (!cells.TryGetValue(key, out var values))
            {
                cells[key] = values = [];
                order.Add(key);
            }
            double value = run.OfferedRate is null ? run.ElapsedSeconds : run.ResponseTime?.P99Micros ?? double.NaN;
            if (run.Succeeded && double.IsFinite(value) && value > 0) values.Add(value);
        }
        var ordered = new OrderedDictionary<CellKey, IReadOnlyList<double>>();
        foreach (var key in order) ordered.Add(key, cells[key]);
        return ordered;
    }

    /// <summary>The cells of a result with measured runs whose read could not account for every acknowledged record: how
    /// many, and the first one's reason. A comparison marks them: their figures are missing, not wrong.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The cells with such runs.</returns>
    public static IReadOnlyDictionary<CellKey, (int Runs, string Reason)> NotVerifiedOf(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var cells = new Dictionary<CellKey, (int Runs, string Reason)>();
        foreach (var run in result.Runs.Where(r => !r.IsWarmup && !r.Verified))
        {
            var key = new CellKey(run.Client, run.Scenario, run.MessageCount, run.PayloadBytes, run.Variant, run.OfferedRate);
            cells[key] = cells.TryGetValue(key, out var seen) ? (seen.Runs + 1, seen.Reason) : (1, run.NotVerifiedReason!);
        }
        return cells;
    }

    /// <summary>One line per cell of a result with runs not verified, for a comparison to say on standard error: which
    /// cell, how many runs, and why the first one could not be verified.</summary>
    /// <param name="result">The result.</param>
    /// <param name="whose">Whose result: <c>candidate</c> or <c>baseline</c>.</param>
    /// <returns>The lines; none when every run was verified.</returns>
    public static IEnumerable<string> NotVerifiedLines(BenchmarkResult result, string whose) =>
        NotVerifiedOf(result).Select(c => string.Create(CultureInfo.InvariantCulture,
            $"kafkaperf: {c.Key.Describe()}: {c.Value.Runs} {whose} run{(c.Value.Runs == 1 ? " was" : "s were")} not verified and not compared ({c.Value.Reason})."));
}
