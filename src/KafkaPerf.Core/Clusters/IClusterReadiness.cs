namespace KafkaPerf.Clusters;

/// <summary>
/// Whether a cluster can serve a run before any client touches it: every broker it lists answers metadata with the run's
/// topic, its partitions and their leaders, and the coordinator of each of the run's consumer groups answers. Creating a
/// topic returns once the controller has it; the other brokers learn it a moment later, and a consumer bootstrapped at one
/// that has not learned it yet fails with "Subscribed topic not available". Owned by the connection
/// (<see cref="ClusterConnection.Readiness"/>), so that every client is measured on a cluster readied the same way.
/// </summary>
/// <remarks>Called outside every timed section: after a run's topic is created and after a fault is healed.</remarks>
public interface IClusterReadiness
{
    /// <summary>Waits until every broker of the cluster knows <paramref name="topic"/> (every partition with a leader, no
    /// error) and the coordinator of each group in <paramref name="groups"/> answers, at most <paramref name="timeout"/>.</summary>
    /// <param name="topic">The run's topic, already created.</param>
    /// <param name="groups">The consumer groups the run will use (none yet exists: finding their coordinator may create
    /// the cluster's <c>__consumer_offsets</c>).</param>
    /// <param name="timeout">How long it may take (the plan's stall timeout).</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns><see langword="null"/> when ready; otherwise one line naming what was not, e.g. <c>broker 3
    /// (127.0.0.1:40123) did not know topic 't' after 20 s (not listed)</c>.</returns>
    ValueTask<string?> WaitUntilReadyAsync(string topic, IReadOnlyList<string> groups, TimeSpan timeout, CancellationToken cancellationToken);
}
