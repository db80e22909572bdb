using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>
/// A sampling profiler of this process (<c>--profile</c>): started before the plan's first run, told where the timed
/// sections of the measured runs of the clients in this process start and stop, and, once the plan has ended, folding the
/// samples taken inside them into profiles per client and cell (the others are left out).
/// </summary>
public interface IRunProfiler : IAsyncDisposable
{
    /// <summary>Why it cannot sample here, as one line that says what to do; <see langword="null"/> when it can.</summary>
    /// <returns>The reason, or <see langword="null"/>.</returns>
    string? Unavailable();

    /// <summary>Starts the sampler, before anything is timed.</summary>
    /// <param name="cancellationToken">Stops the start.</param>
    /// <returns>A task that completes once the sampler is attached.</returns>
    Task StartAsync(CancellationToken cancellationToken);

    /// <summary>The marker of one run's timed section.</summary>
    /// <param name="run">The run.</param>
    /// <returns>The marker; the run's scenario marks the start of its timed section and its end.</returns>
    ISectionProfiler Section(RunDescriptor run);

    /// <summary>Folds what was sampled into profiles per client and cell, and writes each one's files.</summary>
    /// <param name="runs">The plan's runs, for the cells of the runs sampled.</param>
    /// <param name="cancellationToken">Stops the folding: no profile is written then.</param>
    /// <returns>The profiles, in the runs' order.</returns>
    Task<IReadOnlyList<ClientProfile>> FinishAsync(IReadOnlyList<RunRecord> runs, CancellationToken cancellationToken);
}
