using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running.Faults;

/// <summary>Whether the cluster is ready for a run: every broker knows its topic, and the coordinator of each of its groups
/// answers. Asked before every run on a cluster, and again after a fault is healed (its read-back's group included).</summary>
internal static class RunReadiness
{
    /// <summary>The consumer groups of a run on <paramref name="topic"/>: the scenario's (<c>ScenarioContext.GroupId</c>)
    /// and, for a run with faults, the read-back's (<see cref="FaultRun.ReadBackGroup"/>).</summary>
    internal static IReadOnlyList<string> GroupsOf(string topic, bool readsBack) =>
        readsBack ? [ScenarioContext.GroupOf(topic), FaultRun.ReadBackGroup(topic)] : [ScenarioContext.GroupOf(topic)];

    /// <summary>Asks <paramref name="readiness"/> about a run's topic and groups; an exception becomes the line too (the
    /// plan goes on, or stops, as for any cluster that is not ready).</summary>
    /// <param name="readiness">The cluster's readiness check.</param>
    /// <param name="topic">The run's topic.</param>
    /// <param name="readsBack">Whether a read-back follows the run (a run with faults), whose group is asked about too.</param>
    /// <param name="timeout">How long the cluster may take.</param>
    /// <param name="cancellationToken">Ends the wait.</param>
    /// <returns><see langword="null"/> when ready; otherwise what was not, in one line.</returns>
    /// <param name="readers">The groups of other runs that will read the topic (<see cref="ScenarioContext.Fill"/>), asked about too.</param>
    internal static async ValueTask<string?> AskAsync(IClusterReadiness readiness, string topic, bool readsBack, TimeSpan timeout,
        CancellationToken cancellationToken, IReadOnlyList<string>? readers = null)
    {
        try
        {
            var groups = readers is { Count: > 0 } ? [.. GroupsOf(topic, readsBack), .. readers] : GroupsOf(topic, readsBack);
            return await readiness.WaitUntilReadyAsync(topic, groups, timeout, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is not OperationCanceledException and not OutOfMemoryException)
        {
            return $"asking whether it was ready failed: {ExceptionNames.TypeName(ex)}: {ex.Message}";
        }
    }
}
