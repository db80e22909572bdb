using KafkaPerf.Clients;

namespace KafkaPerf.Clusters;

/// <summary>
/// What a cluster can do to itself for a failover study: the adapters implement it for the embedded cluster (every fault
/// kind) and for a cluster KafkaPerf did not start (<see cref="FaultKind.Exec"/> only), and set it on
/// <see cref="ClusterConnection.Faults"/>.
/// </summary>
public interface IFaultInjector
{
    /// <summary>Why the fault cannot run on this cluster, in one line that says what to do; <see langword="null"/> when
    /// it can. Asked before anything starts.</summary>
    /// <param name="fault">The fault.</param>
    /// <returns>The refusal, or <see langword="null"/>.</returns>
    string? Refuse(FaultSpec fault);

    /// <summary>Does the fault now (its first half: the kill, the SIGSTOP, the command) and says what it did.</summary>
    /// <param name="fault">The fault.</param>
    /// <param name="topic">The run's topic (its partition 0 is the one whose leader counts).</param>
    /// <param name="fired">Called with the moment the fault acts, just before the action itself (after the node it acts
    /// on was looked up).</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>What happened.</returns>
    Task<FaultAction> FireAsync(FaultSpec fault, string topic, Action fired, CancellationToken cancellationToken);

    /// <summary>Undoes a restart or a pause (starts the node again, SIGCONT); returns once the node is back.</summary>
    /// <param name="action">What <see cref="FireAsync"/> did.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>A task that completes when the node is back.</returns>
    Task EndAsync(FaultAction action, CancellationToken cancellationToken);

    /// <summary>The node that leads the topic's partition 0 now and its in-sync replicas, from the cluster itself;
    /// <see langword="null"/> when the cluster did not say.</summary>
    /// <param name="topic">The topic.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>The partition's leader and in-sync replicas.</returns>
    Task<PartitionState?> PartitionAsync(string topic, CancellationToken cancellationToken);

    /// <summary>Brings the cluster back as it was before the run's faults - every node running, every replica in sync,
    /// every partition led by its preferred replica - and returns once it is, or says why not within the time.</summary>
    /// <param name="timeout">How long it may take.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns><see langword="null"/> when healed; otherwise why the cluster is still damaged.</returns>
    Task<string?> HealAsync(TimeSpan timeout, CancellationToken cancellationToken);
}

/// <summary>A partition's leader and in-sync replicas, as the cluster said.</summary>
/// <param name="Leader">The leader's node id; -1 when it has none.</param>
/// <param name="InSync">The in-sync replicas' node ids, ascending.</param>
public sealed record PartitionState(int Leader, IReadOnlyList<int> InSync)
{
    /// <summary>The in-sync replicas as <c>1,2,3</c>.</summary>
    public string InSyncText => string.Join(',', InSync);
}

/// <summary>What a fault did when it fired.</summary>
/// <param name="Fault">The fault.</param>
/// <param name="Node">The node it acted on; <see langword="null"/> for an exec.</param>
/// <param name="Did">What happened, in words (e.g. "SIGKILL node 2 (pid 4411), the partition's leader").</param>
public sealed record FaultAction(FaultSpec Fault, int? Node, string Did)
{
    /// <summary>An exec's exit code; <see langword="null"/> when it was ended at its time limit, or for other faults.</summary>
    public int? ExitCode { get; init; }

    /// <summary>The last lines an exec wrote (stdout and stderr).</summary>
    public string? Output { get; init; }

    /// <summary>The node the leadership was moved to (move-leader).</summary>
    public int? MovedTo { get; init; }
}
