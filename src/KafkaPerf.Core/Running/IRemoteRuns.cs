using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>
/// Runs a plan's runs somewhere else: on workers that share each run (<c>run --workers</c>, <c>--processes</c>). The runner
/// then creates no client and no topic of its own; it orders the runs, keeps the results and writes the checkpoints as
/// for a run of its own process.
/// </summary>
public interface IRemoteRuns
{
    /// <summary>Runs one run on the workers and merges what they measured.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="run">The run: its cell, client, repetition and topic (the workers' topics are named after it).</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The merged measurement, with a part per worker; failed when a worker failed or went away.</returns>
    Task<RunRecord> RunAsync(BenchmarkPlan plan, RunDescriptor run, CancellationToken cancellationToken);

    /// <summary>What the workers said of a client (its library version, capabilities, details); <see langword="null"/>
    /// until one of them ran it.</summary>
    /// <param name="client">The client's name.</param>
    /// <returns>Its description.</returns>
    ClientInfo? Describe(string client);
}
