using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;

namespace KafkaPerf.Adapters.Store;

/// <summary>Which past results a new one is judged against.</summary>
/// <param name="Last">How many of the most recent comparable results, per cell.</param>
/// <param name="AnyEnvironment">Judge against results of every environment class, not only the candidate's.</param>
/// <param name="Label">Only results with this label (e.g. <c>main</c>), when given.</param>
/// <param name="Branch">Only results of this branch, when given.</param>
public sealed record HistoryScope(int Last = 10, bool AnyEnvironment = false, string? Label = null, string? Branch = null);

/// <summary>A new result's cells against the store (<c>compare --against-history</c>, <c>PerformanceAssert.NotSlowerThanHistory</c>).</summary>
public static class HistoryGateQuery
{
    /// <summary>Judges every cell of <paramref name="candidate"/> against the last comparable results in the store:
    /// results of the same environment class (unless the scope says any) that measured the same cell and started before
    /// the candidate (so the candidate itself, when it was stored, is not its own history).</summary>
    /// <param name="store">The store.</param>
    /// <param name="candidate">The new result.</param>
    /// <param name="scope">Which past results.</param>
    /// <param name="cancellationToken">Cancels.</param>
    /// <returns>One judgement per cell of the candidate, in its order.</returns>
    public static async Task<IReadOnlyList<HistoryJudgement>> JudgeAsync(ResultStore store, BenchmarkResult candidate, HistoryScope scope, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(candidate);
        ArgumentNullException.ThrowIfNull(scope);
        var cells = CellKey.CellsOf(candidate);
        var filter = new HistoryFilter
        {
            EnvironmentClass = scope.AnyEnvironment ? null : EnvironmentClass.Of(candidate.Environment),
            Label = scope.Label,
            Branch = scope.Branch,
            Last = scope.Last,
            // Only what started before the candidate: not the candidate itself when it was stored, nor a result judged
            // again later against what came after it.
            Until = candidate.StartedAtUtc,
        };
        var history = (await store.CellsAsync(filter, [.. cells.Keys], cancellationToken)).ToLookup(c => c.Cell);
        return [.. cells.Select(c => HistoryGate.Judge(c.Key, [.. history[c.Key].Where(h => h.Values.Count > 0).Select(h => h.Median)], c.Value))];
    }
}
