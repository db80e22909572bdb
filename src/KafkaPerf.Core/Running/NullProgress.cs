using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>Progress that goes nowhere.</summary>
public sealed class NullProgress : IBenchmarkProgress
{
    /// <summary>The only instance.</summary>
    public static NullProgress Instance { get; } = new();

    /// <inheritdoc />
    public void OnPlanStarted(BenchmarkPlan plan)
    {
    }

    /// <inheritdoc />
    public void OnRunStarting(RunDescriptor run)
    {
    }

    /// <inheritdoc />
    public void OnRunCompleted(RunDescriptor run, RunRecord record)
    {
    }

    /// <inheritdoc />
    public void OnWarning(string message)
    {
    }
}
