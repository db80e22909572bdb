namespace KafkaPerf.Plans;

/// <summary>A run about to start, for progress reporting.</summary>
/// <param name="Sequence">Position in the plan, from 1.</param>
/// <param name="TotalRuns">Runs in the plan, warm-ups included.</param>
/// <param name="Cell">The cell.</param>
/// <param name="Client">The client.</param>
/// <param name="Repetition">Repetition from 1; 0 for the warm-up.</param>
/// <param name="Topic">The run's topic.</param>
public sealed record RunDescriptor(int Sequence, int TotalRuns, PlanCell Cell, string Client, int Repetition, string Topic)
{
    /// <summary>Whether this is the excluded warm-up.</summary>
    public bool IsWarmup => Repetition == 0;
}
