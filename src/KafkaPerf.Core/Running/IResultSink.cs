using KafkaPerf.Plans;
using KafkaPerf.Reporting;

namespace KafkaPerf.Running;

/// <summary>Receives the result as it grows, so that it survives whatever happens next: the CLI's checkpoint files.
/// Calls come from the runner, between runs (never inside a timed section).</summary>
public interface IResultSink
{
    /// <summary>A run starts: if the process ends before the next <see cref="OnRunCompleted"/>, this run was cut short.</summary>
    /// <param name="run">The run.</param>
    /// <param name="soFar">The result so far (computed when called, at a cost that grows with the runs: call it once, not
    /// per run), marked <see cref="BenchmarkResult.InProgress"/>.</param>
    void OnRunStarting(RunDescriptor run, Func<BenchmarkResult> soFar);

    /// <summary>One or more runs have ended: what they added to the result. Its rest is marked
    /// <see cref="BenchmarkResult.InProgress"/> while the plan goes on.</summary>
    /// <param name="increment">The runs added and the rest of the result now; the runs before them came in earlier calls
    /// (or in the <c>soFar</c> of <see cref="OnRunStarting"/>).</param>
    void OnRunCompleted(ResultIncrement increment);
}
