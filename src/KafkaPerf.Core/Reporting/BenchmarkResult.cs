using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting;

/// <summary>Everything a plan produced: the immutable model every exporter reads.</summary>
public sealed record BenchmarkResult
{
    /// <summary>Version of the JSON schema (see docs/results-schema.md).</summary>
    public int SchemaVersion { get; init; } = 2;

    /// <summary>When the plan started (UTC wall clock, for the record only; timing uses the monotonic clock).</summary>
    public required DateTimeOffset StartedAtUtc { get; init; }

    /// <summary>When it ended.</summary>
    public required DateTimeOffset FinishedAtUtc { get; init; }

    /// <summary>Where it ran.</summary>
    public required EnvironmentInfo Environment { get; init; }

    /// <summary>The plan.</summary>
    public required BenchmarkPlan Plan { get; init; }

    /// <summary>The clients, versions and effective configurations.</summary>
    public required IReadOnlyList<ClientInfo> Clients { get; init; }

    /// <summary>Every run, warm-ups and failures included.</summary>
    public required IReadOnlyList<RunRecord> Runs { get; init; }

    /// <summary>Statistics per client and cell.</summary>
    public required IReadOnlyList<CellResult> Cells { get; init; }

    /// <summary>Each other client against the baseline, per cell.</summary>
    public required IReadOnlyList<CellComparison> Comparisons { get; init; }

    /// <summary>Things the reader must know (settings that cannot mean the same on every client, ignored options, …).</summary>
    public required IReadOnlyList<string> Warnings { get; init; }

    /// <summary>The searches for the highest sustainable rate (<c>find-rate</c>), one per client and cell; <see langword="null"/>
    /// for a plain run.</summary>
    public IReadOnlyList<RateSearchResult>? RateSearches { get; init; }

    /// <summary>Where each client's CPU went, per cell, when the plan was profiled (<c>--profile</c>); otherwise
    /// <see langword="null"/>.</summary>
    public IReadOnlyList<ClientProfile>? Profiles { get; init; }

    /// <summary>Whether this is a checkpoint written while the plan was still running: it holds the runs done so far
    /// (of <c>plan.totalRuns</c>). A file that still says so after the tool ended was cut off (the process was killed).</summary>
    public bool InProgress { get; init; }

    /// <summary>Why the plan stopped before its end when something underneath failed (the embedded broker exited, the
    /// cluster stopped answering); <see langword="null"/> otherwise.</summary>
    public string? AbortReason { get; init; }

    /// <summary>What the cluster warm-up before the first run did (<see cref="BenchmarkPlan.ClusterWarmup"/>): rounds, records,
    /// clients, seconds; <see langword="null"/> when there was none.</summary>
    public string? ClusterWarmup { get; init; }

    /// <summary>Whether the plan was cancelled before its end (the result holds the runs done so far).</summary>
    public bool Cancelled { get; init; }

    /// <summary>Measured runs that failed.</summary>
    public int FailedRuns => Runs.Count(r => !r.IsWarmup && !r.Succeeded);
}
