using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>Which runs a chart may be drawn for: a chart stands for runs that happened, so a plan stopped before a cell
/// (Ctrl+C, its broker gone) draws nothing for that cell rather than an empty frame.</summary>
internal static class ChartRuns
{
    /// <summary>The runs of <paramref name="result"/> that happened: all but the one its end cut short.</summary>
    /// <remarks>A plan that stops mid-run records the run in progress as failed, with nothing measured (no record sent,
    /// no interval), as the result's last run; it is in the tables, but no chart is drawn for it.</remarks>
    public static IEnumerable<RunRecord> Happened(BenchmarkResult result) =>
        result.Runs.Count > 0 && Interrupted(result, result.Runs[^1]) ? result.Runs.Take(result.Runs.Count - 1) : result.Runs;

    /// <summary>The measured runs (not warm-ups) that happened, succeeded or failed.</summary>
    public static IEnumerable<RunRecord> Measured(BenchmarkResult result) => Happened(result).Where(r => !r.IsWarmup);

    private static bool Interrupted(BenchmarkResult result, RunRecord run) =>
        (result.Cancelled || result.AbortReason is not null) && run.Error is not null && run.Sent == 0 && run.Intervals is null;
}
