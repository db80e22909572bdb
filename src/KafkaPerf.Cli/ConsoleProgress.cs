using System.Globalization;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli;

/// <summary>One line per run on standard error, so standard output stays clean for the tables; each line ends with an
/// estimate of the time left (the mean time per run so far, times the runs to go; counted from the first run, so a
/// cluster warm-up before it is not taken for the pace of the runs).</summary>
internal sealed class ConsoleProgress(TextWriter writer) : IBenchmarkProgress
{
    private bool _showVariant;
    private long _started;
    private int _clientWidth = 12;
    private readonly ClusterWarmupLines _warmupLines = new(writer);
    private BenchmarkPlan? _plan;

    public void OnPlanStarted(BenchmarkPlan plan)
    {
        _showVariant = plan.SettingsVariants.Count > 1;
        _clientWidth = Math.Max(12, plan.Clients.Max(c => c.Length));
        _started = 0;
        _plan = plan;
        _warmupLines.Reset();
        var references = plan.References.Count == 0 ? string.Empty
            : $"; references {string.Join(", ", plan.References)} in produce and consume cells, without warm-up";
        writer.WriteLine($"kafkaperf: {Count(plan.TotalRuns, "run")} ({Count(plan.Clients.Count - plan.References.Count, "client")} × {Count(plan.Cells().Count(), "cell")} × "
            + $"{Count(plan.Repeat, "repetition")}{(WarmupRuns(plan) ? " + 1 warm-up" : string.Empty)}{references})");
        if (plan.ClusterWarmup > TimeSpan.Zero)
            writer.WriteLine(plan.ClusterWarmupNotice("first"));
    }

    public void OnRunStarting(RunDescriptor run)
    {
        if (_started == 0) _started = System.Diagnostics.Stopwatch.GetTimestamp();
    }

    public void OnRunCompleted(RunDescriptor run, RunRecord record)
    {
        var cell = run.Cell;
        string outcome = record.Succeeded
            ? string.Create(CultureInfo.InvariantCulture, $"{record.MessagesPerSecond,14:N0} msg/s  {record.ElapsedSeconds,9:0.0000} s")
            : $"FAILED: {record.Error}";
        var line = string.Create(CultureInfo.InvariantCulture,
            $"[{run.Sequence,4}/{run.TotalRuns}] {cell.Scenario.ToString().ToLowerInvariant(),-9} {cell.MessageCount,9:N0} × {cell.PayloadBytes,6} B  {run.Client.PadRight(_clientWidth)} {(run.IsWarmup ? "warm-up" : $"run {run.Repetition}"),-7} {outcome}");
        if (_showVariant) line += $"  [{cell.Variant}]";
        writer.WriteLine(run.Sequence < run.TotalRuns ? $"{line}  {TimeLeft(run)}" : line);
        foreach (var fault in record.Faults ?? []) writer.WriteLine($"         fault {KafkaPerf.Reporting.Tables.FaultTables.Describe(fault)}");
        foreach (var e in record.Rebalances ?? []) writer.WriteLine($"         event {KafkaPerf.Reporting.Tables.RebalanceTables.Describe(e)}");
    }

    /// <summary>About how long the remaining runs take, at the pace so far.</summary>
    internal string TimeLeft(RunDescriptor run)
    {
        var elapsed = System.Diagnostics.Stopwatch.GetElapsedTime(_started);
        var left = elapsed / run.Sequence * (run.TotalRuns - run.Sequence);
        return left.TotalSeconds < 60
            ? string.Create(CultureInfo.InvariantCulture, $"~{Math.Ceiling(left.TotalSeconds):0} s left")
            : string.Create(CultureInfo.InvariantCulture, $"~{(int)left.TotalMinutes} min {left.Seconds:00} s left");
    }

    private static string Count(int n, string noun) => n.ToString("N0", CultureInfo.InvariantCulture) + " " + (n == 1 ? noun : noun + "s");

    public void OnWarning(string message) => writer.WriteLine($"warning: {message}");

    /// <summary>A line every 10 s or so of a cluster warm-up, so that 30-90 s of it are not silent.</summary>
    public void OnClusterWarmupRound(int round, string client, TimeSpan elapsed, TimeSpan length)
    {
        if (_plan is not null) _warmupLines.OnRound(_plan, round, client, elapsed);
    }

    /// <summary>Whether any client runs a warm-up run (bursts do; a rate warms up inside each run instead).</summary>
    private static bool WarmupRuns(BenchmarkPlan plan) =>
        plan.Cells().Any(cell => plan.ClientsFor(cell).Any(client => plan.HasWarmupRun(cell, client)));
}
