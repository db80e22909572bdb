using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// Every fault kind on KafkaPerf's embedded cluster: SIGKILL, SIGSTOP/SIGCONT and restarts of a node's JVM, a graceful
/// stop, and the leader moved - questions and orders to the cluster go through the admin client of a node's own JVM
/// (see <c>NodeCommands.java</c>), so nothing starts while a run is timed.
/// </summary>
internal sealed class EmbeddedFaults(EmbeddedKafkaBroker cluster) : IFaultInjector
{
    private static readonly TimeSpan AskTimeout = TimeSpan.FromSeconds(6);

    public string? Refuse(FaultSpec fault) => RefuseFor(cluster.Nodes.Count, fault, cluster.Proxies is not null);

    internal static string? RefuseFor(int nodes, FaultSpec fault, bool proxied = true)
    {
        if (fault.Kind == FaultKind.Exec) return null;
        if (fault.IsNetwork && !proxied)
            return $"--fault {fault} acts through the shaping proxies, and this cluster was started without them: start it for a plan with the fault (the tool does), or with --network.";
        // One node may be slowed, or cut from its clients: the cluster itself goes on.
        if (nodes == 1 && fault.IsNetwork && !fault.TakesNodeDown && fault.Node is null or 1) return null;
        if (nodes == 1)
        {
            return fault.Kind == FaultKind.MoveLeader
                ? $"--fault {fault} needs another replica to move the leadership to, and the embedded broker is one node: start a cluster with --brokers 3."
                : $"--fault {fault} would take down the only broker of a one-node cluster: start a cluster with --brokers 3 (and --replication-factor 3).";
        }
        if (fault.Target == FaultTarget.Node && fault.Node > nodes)
            return $"--fault {fault} names node {fault.Node}, and the cluster has nodes 1 to {nodes}: name one of those.";
        return null;
    }

    public async Task<FaultAction> FireAsync(FaultSpec fault, string topic, Action fired, CancellationToken cancellationToken)
    {
        if (fault.Kind == FaultKind.Exec) return await FaultCommand.RunAsync(fault, fired, cancellationToken).ConfigureAwait(false);
        if (fault.Kind == FaultKind.MoveLeader)
        {
            fired();
            // Two admin calls of up to 5 s each in the node's JVM.
            var answer = await AskAsync($"move-leader {topic} 0", exclude: null, cancellationToken, TimeSpan.FromSeconds(15)).ConfigureAwait(false);
            int to = int.Parse(answer, CultureInfo.InvariantCulture);
            return new FaultAction(fault, null, $"moved the leadership of {topic}-0 to node {to}") { MovedTo = to };
        }
        var (node, why) = await TargetAsync(fault, topic, cancellationToken).ConfigureAwait(false);
        int pid = node.ProcessId;
        if (fault.IsNetwork)
        {
            // Whether it leads the quorum too says much of what follows: the quorum must elect another controller first.
            if (fault.Target != FaultTarget.Controller && cluster.Nodes.Count > 1
                && await AskAsync("controller", exclude: null, cancellationToken).ConfigureAwait(false) == node.NodeId.ToString(CultureInfo.InvariantCulture))
                why += " and the active controller";
            return CutOff(fault, node, why, fired);
        }
        switch (fault.Kind)
        {
            case FaultKind.Kill or FaultKind.Restart:
                node.ExitExpected = true;
                fired();
                node.KillAtOnce();
                return new FaultAction(fault, node.NodeId, $"SIGKILL node {node.NodeId} (pid {pid}){why}");
            case FaultKind.Pause:
                node.Pause(fired);
                return new FaultAction(fault, node.NodeId, $"SIGSTOP node {node.NodeId} (pid {pid}){why}");
            default:
                node.ExitExpected = true;
                fired();
                node.StopGracefully();
                return new FaultAction(fault, node.NodeId, $"graceful stop of node {node.NodeId} (pid {pid}){why}");
        }
    }

    /// <summary>A network fault: the node's links cut or slowed through the proxies, its process left running.</summary>
    private FaultAction CutOff(FaultSpec fault, EmbeddedBrokerNode node, string why, Action fired)
    {
        var proxies = cluster.Proxies ?? throw new InvalidOperationException(RefuseFor(cluster.Nodes.Count, fault, proxied: false));
        string did;
        fired();
        if (fault.Kind == FaultKind.Slow)
        {
            proxies.Slow(node.NodeId, fault.SlowRtt!.Value);
            did = string.Create(CultureInfo.InvariantCulture, $"slowed the links of node {node.NodeId} (pid {node.ProcessId}){why} by {fault.SlowRtt.Value.TotalMilliseconds:0.###} ms of round trip");
        }
        else
        {
            int cut = proxies.Cut(node.NodeId, fault.Kind, fault.ClientsOnly);
            string from = fault.ClientsOnly ? "clients" : "clients and peers";
            string how = fault.Kind == FaultKind.Isolate ? "reset" : "held open and silent";
            did = $"cut node {node.NodeId} (pid {node.ProcessId}, still running){why} off from {from}: {cut} connection(s) {how}";
        }
        return new FaultAction(fault, node.NodeId, did);
    }

    public async Task EndAsync(FaultAction action, CancellationToken cancellationToken)
    {
        if (action.Fault.IsNetwork)
        {
            cluster.Proxies?.Restore(action.Node!.Value);
            return;
        }
        var node = cluster.Nodes[action.Node!.Value - 1];
        if (action.Fault.Kind == FaultKind.Pause) node.Resume();
        else if (action.Fault.Kind == FaultKind.Restart) await cluster.RestartNodeAsync(node.NodeId, cancellationToken).ConfigureAwait(false);
    }

    public async Task<PartitionState?> PartitionAsync(string topic, CancellationToken cancellationToken)
    {
        // "LEADER ISR REPLICAS", ids comma-separated, '-' for none.
        var words = (await AskAsync($"leader {topic} 0", exclude: null, cancellationToken).ConfigureAwait(false)).Split(' ');
        var inSync = words[1] == "-" ? [] : words[1].Split(',').Select(id => int.Parse(id, CultureInfo.InvariantCulture)).Order().ToList();
        return new PartitionState(int.Parse(words[0], CultureInfo.InvariantCulture), inSync);
    }

    public async Task<string?> HealAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        string? damage = null;
        try
        {
            return await HealWithinAsync(d => damage = d, limit.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return damage ?? "it did not answer";
        }
    }

    private async Task<string?> HealWithinAsync(Action<string> damaged, CancellationToken cancellationToken)
    {
        string? damage = null;
        // Every link first: a node cut off cannot rejoin.
        cluster.Proxies?.RestoreAll();
        while (true)
        {
            try
            {
                foreach (var node in cluster.Nodes)
                {
                    if (node.IsPaused) node.Resume();
                    // A graceful stop may still be under way: its JVM ends by itself first.
                    if (!node.Exited.IsCompleted && node.ExitExpected) await node.Exited.WaitAsync(TimeSpan.FromSeconds(30), cancellationToken).ConfigureAwait(false);
                    if (node.Exited.IsCompleted) await cluster.RestartNodeAsync(node.NodeId, cancellationToken).ConfigureAwait(false);
                }
                var answer = await AskAsync($"health {cluster.Nodes.Count}", exclude: null, cancellationToken).ConfigureAwait(false);
                if (answer == "healthy")
                {
                    // Every node's admin client made and connected now, not on its first question inside a timed run (its
                    // start took a broker ~2 s of CPU on two cores).
                    await Task.WhenAll(cluster.Nodes.Where(n => n.IsServing).Select(n => n.AskAsync("controller", AskTimeout, cancellationToken))).ConfigureAwait(false);
                    return null;
                }
                damage = answer.StartsWith("waiting ", StringComparison.Ordinal) ? answer["waiting ".Length..] : answer;
                // Once every replica is back in sync, leaders return to their preferred replicas by an election.
                if (damage.Contains("preferred replica", StringComparison.Ordinal))
                    await AskAsync("elect-preferred", exclude: null, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is InvalidOperationException or TimeoutException or BrokerStartException)
            {
                damage = ex.Message;
            }
            if (damage is not null) damaged(damage);
            await Task.Delay(250, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>The node a fault acts on, and why it is that one.</summary>
    private async Task<(EmbeddedBrokerNode Node, string Why)> TargetAsync(FaultSpec fault, string topic, CancellationToken cancellationToken)
    {
        int id;
        string why;
        switch (fault.Target)
        {
            case FaultTarget.Leader:
                id = (await PartitionAsync(topic, cancellationToken).ConfigureAwait(false))?.Leader ?? -1;
                if (id < 1) throw new InvalidOperationException($"{topic}-0 had no leader to act on");
                why = $", the leader of {topic}-0";
                break;
            case FaultTarget.Controller:
                id = int.Parse(await AskAsync("controller", exclude: null, cancellationToken).ConfigureAwait(false), CultureInfo.InvariantCulture);
                why = ", the active controller";
                break;
            default:
                id = fault.Node!.Value;
                why = string.Empty;
                break;
        }
        var node = cluster.Nodes[id - 1];
        if (!node.IsServing) throw new InvalidOperationException($"node {id} was already down");
        return (node, why);
    }

    /// <summary>Asks a serving node (other than <paramref name="exclude"/>) through its JVM's admin client.</summary>
    private Task<string> AskAsync(string command, int? exclude, CancellationToken cancellationToken, TimeSpan? timeout = null)
    {
        // A node cut off from its peers still answers, from what it knew before: never asked then.
        var node = cluster.Nodes.FirstOrDefault(n => n.IsServing && n.NodeId != exclude && !n.ExitExpected && cluster.Proxies?.IsCutFromPeers(n.NodeId) != true)
            ?? throw new InvalidOperationException("no node of the cluster is serving");
        return node.AskAsync(command, timeout ?? AskTimeout, cancellationToken);
    }
}
