using KafkaPerf.Scenarios;

namespace KafkaPerf.Plans;

/// <summary>A run of the plan: which client runs which cell, its repetition and its topic.</summary>
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

    /// <summary>What a scenario measured, placed as this run and summarized (rates, percentiles, a failed verification's
    /// error): the run's record in the result.</summary>
    /// <param name="measured">What the scenario, a reference tool or the workers measured.</param>
    /// <returns>The run's record.</returns>
    public RunRecord Record(RunRecord measured)
    {
        ArgumentNullException.ThrowIfNull(measured);
        return (measured with
        {
            Sequence = Sequence,
            Client = Client,
            Scenario = Cell.Scenario,
            MessageCount = Cell.MessageCount,
            PayloadBytes = Cell.PayloadBytes,
            Variant = Cell.Variant,
            Repetition = Repetition,
            IsWarmup = IsWarmup,
            Topic = Topic,
            OfferedRate = Cell.Rate,
        }).Summarized();
    }
}
