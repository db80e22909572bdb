using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>Receives the runner's progress; the CLI renders it. Calls come from the runner's thread.</summary>
public interface IBenchmarkProgress
{
    /// <summary>The plan starts.</summary>
    /// <param name="plan">The plan.</param>
    void OnPlanStarted(BenchmarkPlan plan);

    /// <summary>A run starts.</summary>
    /// <param name="run">What runs.</param>
    void OnRunStarting(RunDescriptor run);

    /// <summary>A run ended.</summary>
    /// <param name="run">What ran.</param>
    /// <param name="record">What it measured.</param>
    void OnRunCompleted(RunDescriptor run, RunRecord record);

    /// <summary>Something the user should read (a warning, a skipped step).</summary>
    /// <param name="message">One line.</param>
    void OnWarning(string message);

    /// <summary>A round of the cluster warm-up (<see cref="BenchmarkPlan.ClusterWarmup"/>) ended; no round is a run.</summary>
    /// <param name="round">The round, from 1.</param>
    /// <param name="client">The client that ran it.</param>
    /// <param name="elapsed">The warm-up's time so far.</param>
    /// <param name="length">The warm-up's length.</param>
    void OnClusterWarmupRound(int round, string client, TimeSpan elapsed, TimeSpan length)
    {
    }
}
