using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Store;

/// <summary>What a store keeps beside a result that the result itself does not say.</summary>
/// <param name="Label">The user's label (<c>--label</c>), e.g. a pull request or a setting under test.</param>
/// <param name="GitCommit">The commit of the repository the run was started in, when it was.</param>
/// <param name="GitBranch">Its branch.</param>
public sealed record StoreMetadata(string? Label, string? GitCommit, string? GitBranch);

/// <summary>One stored result, as <c>history list</c> shows it.</summary>
/// <param name="Id">Its number in the store.</param>
/// <param name="StoredAt">When it was stored.</param>
/// <param name="StartedAt">When its plan started.</param>
/// <param name="Metadata">Label, commit and branch.</param>
/// <param name="Machine">The machine's name.</param>
/// <param name="EnvironmentClass">Which results it may be judged against (<see cref="EnvironmentClass"/>).</param>
/// <param name="ToolVersion">KafkaPerf's release that measured it.</param>
/// <param name="Clients">Its clients.</param>
/// <param name="Cells">How many cells it measured.</param>
public sealed record StoredResult(
    long Id, DateTimeOffset StoredAt, DateTimeOffset StartedAt, StoreMetadata Metadata, string Machine, string EnvironmentClass, string ToolVersion,
    IReadOnlyList<string> Clients, int Cells);

/// <summary>One cell of one stored result: a point of a trend.</summary>
/// <param name="ResultId">The stored result.</param>
/// <param name="StartedAt">When its plan started.</param>
/// <param name="Metadata">Label, commit and branch.</param>
/// <param name="Cell">The cell.</param>
/// <param name="Values">Its successful runs' values on the cell's metric.</param>
public sealed record StoredCell(long ResultId, DateTimeOffset StartedAt, StoreMetadata Metadata, CellKey Cell, IReadOnlyList<double> Values)
{
    /// <summary>The median of <see cref="Values"/>.</summary>
    public double Median => HistoryGate.Median(Values);
}

/// <summary>Which stored results a query wants; every filter that is set must match.</summary>
public sealed record HistoryFilter
{
    /// <summary>Only cells of this client.</summary>
    public string? Client { get; init; }

    /// <summary>Only cells of this scenario.</summary>
    public ScenarioKind? Scenario { get; init; }

    /// <summary>Only cells of this payload size.</summary>
    public int? PayloadBytes { get; init; }

    /// <summary>Only cells at this offered rate.</summary>
    public double? Rate { get; init; }

    /// <summary>Only results with this label.</summary>
    public string? Label { get; init; }

    /// <summary>Only results of commits starting with this.</summary>
    public string? Commit { get; init; }

    /// <summary>Only results of this branch.</summary>
    public string? Branch { get; init; }

    /// <summary>Only results started at or after this.</summary>
    public DateTimeOffset? Since { get; init; }

    /// <summary>Only results started before this.</summary>
    public DateTimeOffset? Until { get; init; }

    /// <summary>Only results of this environment class.</summary>
    public string? EnvironmentClass { get; init; }

    /// <summary>Only the last this many results that match the rest (per cell for cell queries).</summary>
    public int? Last { get; init; }
}

/// <summary>What appending a result did.</summary>
/// <param name="Id">The result's number in the store.</param>
/// <param name="AlreadyStored">True when the same document was stored before (nothing was added).</param>
public sealed record StoreOutcome(long Id, bool AlreadyStored);
