using KafkaPerf.Plans;
using KafkaPerf.Reporting;

namespace KafkaPerf.Running;

/// <summary>Receives the result as it grows, so that it survives whatever happens next: the CLI's checkpoint files.
/// Calls come from the runner, between runs (never inside a timed section).</summary>
public interface IResultSink
{
    /// <summary>A run starts: if the process ends before the next <see cref="OnRunCompleted"/>, this run was cut short.</summary>
    /// <param name="run">The run.</param>
    /// <param name="soFar">The result so far (computed when called), marked <see cref="BenchmarkResult.InProgress"/>.</param>
    void OnRunStarting(RunDescriptor run, Func<BenchmarkResult> soFar);

    /// <summary>One or more runs have ended; <paramref name="soFar"/> holds them and every run before them. Marked
    /// <see cref="BenchmarkResult.InProgress"/> while the plan goes on.</summary>
    /// <param name="soFar">The result so far.</param>
    void OnRunCompleted(BenchmarkResult soFar);
}
