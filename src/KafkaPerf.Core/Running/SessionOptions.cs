using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Running;

/// <summary>What a <see cref="BenchmarkSession"/> does besides running its plan; everything is optional.</summary>
public sealed record SessionOptions
{
    /// <summary>Progress lines (<c>kafkaperf: …</c>: the broker starting, find-rate's probes), or <see langword="null"/>.</summary>
    public TextWriter? Log { get; init; }

    /// <summary>Receives what every run added to the result (the CLI's checkpoint files), or <see langword="null"/>.</summary>
    public IResultSink? Checkpoints { get; init; }

    /// <summary>Where the runs run when not in this process: called once the broker answers, e.g. to gather a worker group;
    /// <see langword="null"/> to run them here. The session disposes what it returns when that is disposable.</summary>
    public Func<ClusterConnection, CancellationToken, Task<IRemoteRuns>>? Remote { get; init; }

    /// <summary>Samples the timed sections of the runs of this process (<c>--profile</c>); <see langword="null"/> for none.
    /// The session starts it before the first run and disposes it.</summary>
    public IRunProfiler? Profiler { get; init; }

    /// <summary>The clock of the runs; the stopwatch when <see langword="null"/>.</summary>
    public IClock? Clock { get; init; }
}
