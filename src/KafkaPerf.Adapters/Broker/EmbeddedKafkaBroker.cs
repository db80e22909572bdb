using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Adapters.Network;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// A real Apache Kafka cluster of one or more KRaft nodes, each in a child JVM of its own, on free loopback ports, with a
/// fresh data folder that is deleted again on dispose. One node (the default) is a combined broker and controller; a
/// cluster's first three nodes are combined brokers and controllers (a quorum of three voters, so that any one node may
/// be lost), and further nodes are brokers only.
/// </summary>
/// <remarks>
/// <para>Ready means a real admin request (<c>describeCluster</c>) lists every broker, not just an open port.</para>
/// <para>No node outlives its owner: each JVM watches a pipe that only this process holds open, and when it closes - on
/// dispose, on exit, or when this process is killed, even with SIGKILL - the JVM deletes its data folder and halts.
/// Once ready, the nodes ignore Ctrl+C, so a cancelled run can still delete its topics before stopping them.</para>
/// <para>Thread-safe to dispose more than once.</para>
/// </remarks>
public sealed partial class EmbeddedKafkaBroker : IAsyncDisposable
{
    private const string MainClass = "kafkaperf.broker.EmbeddedBrokerMain";
    private const string ReadyPrefix = "KAFKAPERF-READY ";
    private const string FailedPrefix = "KAFKAPERF-FAILED ";
    private const int LogTailLines = 25;

    /// <summary>The most controllers (voters of the KRaft quorum): three survive the loss of any one.</summary>
    public const int MaxControllers = 3;

    internal const string LogFolderName = "kafka-logs";
    private readonly TaskCompletionSource<BrokerExit> _unexpectedExit = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string? _crashLogPath;
    private int _disposed;
    private IBrokerProbe? _probe;
    private IBrokerBreakdown? _breakdown;

    private readonly BrokerClassArchive? _classArchive;
    private Relaunch? _relaunch;
    private ProxyNetwork? _network;

    /// <summary>The shaping proxies in front of the nodes (<see cref="EmbeddedKafkaBrokerOptions.ShapedNetwork"/>); they
    /// close with the broker. <see langword="null"/> when clients reach the nodes directly.</summary>
    public INetworkShaper? Network => _network;

    /// <summary>The proxies themselves, for network faults; <see langword="null"/> without them.</summary>
    internal ProxyNetwork? Proxies => _network;

    /// <summary>Where the proxies' measured round trips are said; none when <see langword="null"/>.</summary>
    internal TextWriter? NetworkLog
    {
        set
        {
            if (_network is not null) _network.Log = value;
        }
    }

    private EmbeddedKafkaBroker(IReadOnlyList<EmbeddedBrokerNode> nodes, string version, string dataDirectory, KafkaJars jars,
        TimeSpan startupTime, string? crashLogPath, BrokerClassArchive? classArchive, KafkaSecurity security)
    {
        Security = security;
        _classArchive = classArchive;
        _crashLogPath = crashLogPath;
        Nodes = nodes;
        BootstrapServers = string.Join(',', nodes.Select(n => n.BootstrapServer));
        KafkaVersion = version;
        DataDirectory = dataDirectory;
        Jars = jars;
        StartupTime = startupTime;
        Exited = Task.WhenAll(nodes.Select(n => n.Exited));
        foreach (var node in nodes) WatchExit(node);
    }

    private void WatchExit(EmbeddedBrokerNode node) =>
        node.Exited.ContinueWith(static (_, state) =>
        {
            var (broker, exited) = ((EmbeddedKafkaBroker, EmbeddedBrokerNode))state!;
            broker.OnExited(exited);
        }, (this, node), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);

    /// <summary>How clients reach the cluster's client listener: the protocol, the SASL user and password it was started
    /// with, and the CA file (PEM) of its own certificate; plain TCP by default.</summary>
    public KafkaSecurity Security { get; }

    /// <summary>The bootstrap addresses of every node, <c>127.0.0.1:port,…</c>.</summary>
    public string BootstrapServers { get; }

    /// <summary>The Kafka version the nodes report.</summary>
    public string KafkaVersion { get; }

    /// <summary>The nodes, in node-id order (node ids start at 1).</summary>
    public IReadOnlyList<EmbeddedBrokerNode> Nodes { get; }

    /// <summary>How many controllers (KRaft voters) the cluster has: the first nodes, at most <see cref="MaxControllers"/>.</summary>
    public int Controllers => ControllersFor(Nodes.Count);

    /// <summary>The first node's JVM process id.</summary>
    public int ProcessId => Nodes[0].ProcessId;

    /// <summary>The cluster's data folder, holding one folder per node (<c>node-1</c>, …); deleted on dispose.</summary>
    public string DataDirectory { get; }

    /// <summary>The first node's <c>log.dirs</c>: one folder per partition, <c>TOPIC-N</c>.</summary>
    public string LogDirectory => Nodes[0].LogDirectory;

    /// <summary>Asks every serving node's JVM for a full collection (tests: a collection that must show in the broker's series).</summary>
    internal Task CollectGarbageAsync(CancellationToken cancellationToken) =>
        Task.WhenAll(Nodes.Where(n => n.IsServing).Select(n => n.AskAsync("gc", TimeSpan.FromSeconds(10), cancellationToken)));

    /// <summary>Reads the nodes' request metrics and collections per interval, for the breakdown (summed over the nodes).</summary>
    public IBrokerBreakdown Breakdown => _breakdown ??= new EmbeddedBrokerMetrics(this);

    /// <summary>Reads the nodes' CPU time and topics' bytes on disk (over every replica), for each run's resources.</summary>
    public IBrokerProbe Probe => _probe ??= new EmbeddedBrokerProbe(() => Nodes.Select(n => n.ProcessId), Nodes.Select(n => n.LogDirectory).ToList());

    /// <summary>The first node's log file.</summary>
    public string LogFile => Nodes[0].LogFile;

    /// <summary>The first node's <c>server.properties</c>, as written, for the result's environment.</summary>
    public IReadOnlyDictionary<string, string> Config => Nodes[0].Config;

    /// <summary>The jars it runs from.</summary>
    public KafkaJars Jars { get; }

    /// <summary>From the call to <see cref="StartAsync"/> until the cluster listed every broker.</summary>
    public TimeSpan StartupTime { get; }

    /// <summary>Tells of a node that ended by itself (or by <see cref="KillNode"/>) while the cluster goes on; the cluster's
    /// end is <see cref="UnexpectedExit"/>.</summary>
    public event Action<EmbeddedBrokerNode, BrokerExit>? NodeExited;

    /// <summary>What starting a node again on its data needs.</summary>
    private sealed record Relaunch(string Java, string ClassPath, IReadOnlyList<NodePlan> Plans, string ClusterId, EmbeddedKafkaBrokerOptions Options,
        BrokerClassArchive? Archive);

    /// <summary>Completes when every node's JVM has ended, whatever the reason.</summary>
    public Task Exited { get; }

    /// <summary>Completes when the cluster can no longer serve because nodes ended by themselves - killed, crashed, out of
    /// memory - before it was disposed: the single node of a one-node cluster, a majority of the controllers, or every
    /// broker. It says how and where a copy of the log is; it never completes for a cluster that is disposed first.</summary>
    public Task<BrokerExit> UnexpectedExit => _unexpectedExit.Task;

    private void OnExited(EmbeddedBrokerNode node)
    {
        if (Volatile.Read(ref _disposed) != 0) return;
        string how;
        try
        {
            how = BrokerProcess.DescribeExit(node.ExitCode);
        }
        catch (InvalidOperationException)
        {
            how = "ended";
        }
        // A fault's kill is no crash: its log is not copied (nor, in the middle of a measured outage, read).
        var log = node.ExitExpected ? null : BrokerProcess.KeepLog(node, _crashLogPath, Nodes.Count);
        if (Nodes.Count == 1)
        {
            _unexpectedExit.TrySetResult(new BrokerExit($"the embedded broker exited ({how})", log));
            return;
        }
        var exit = new BrokerExit($"node {node.NodeId} of the embedded cluster exited ({how})", log);
        int controllersGone = Nodes.Count(n => n.IsController && n.Exited.IsCompleted);
        if (controllersGone > Controllers / 2 || Nodes.All(n => n.Exited.IsCompleted))
        {
            _unexpectedExit.TrySetResult(exit with
            {
                What = $"{exit.What}; {controllersGone} of its {Controllers} controllers are gone, so it cannot serve",
            });
            return;
        }
        // A fault's kill or graceful stop is the run's doing, said in its result: not a crash to report.
        if (!node.ExitExpected) NodeExited?.Invoke(node, exit);
    }

    /// <summary>Starts a node that ended (killed, stopped) again on its data, and returns once the cluster lists every
    /// broker again (a fault's second half, or healing).</summary>
    /// <param name="nodeId">The node's id, from 1.</param>
    /// <param name="cancellationToken">Stops waiting; the new JVM is then killed.</param>
    /// <exception cref="BrokerStartException">It did not become ready.</exception>
    internal async Task RestartNodeAsync(int nodeId, CancellationToken cancellationToken)
    {
        var relaunch = _relaunch ?? throw new InvalidOperationException("The cluster cannot start nodes again.");
        var node = Nodes[nodeId - 1];
        if (!node.Exited.IsCompleted) throw new InvalidOperationException($"Node {nodeId} still runs.");
        var plan = relaunch.Plans[nodeId - 1];
        // Ready once the cluster lists this node beside those serving now: another node may still be down (healing starts
        // them one after another).
        int expected = Nodes.Count(n => n.NodeId != nodeId && !n.Exited.IsCompleted) + 1;
        var launched = Launch(relaunch.Java, relaunch.ClassPath, plan, relaunch.ClusterId, expected, relaunch.Options, relaunch.Archive?.OptionFor(nodeId));
        try
        {
            await launched.Ready.WaitAsync(relaunch.Options.StartTimeout + TimeSpan.FromSeconds(10), cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            try
            {
                if (!launched.Process.HasExited) launched.Process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // Gone already.
            }
            if (ex is OperationCanceledException) throw;
            throw new BrokerStartException($"node {nodeId} did not start again: {ex.Message}" + BrokerProcess.Section("JVM output", launched.Output.Lines()), ex);
        }
        node.Replace(launched.Process, launched.Channel);
        if (Volatile.Read(ref _disposed) != 0)
        {
            node.Kill();
            return;
        }
        WatchExit(node);
    }

    /// <summary>Ends one node's JVM at once with SIGKILL, as a crash would, and waits until it is gone; the cluster goes
    /// on without it (a fault to inject). Its data folder stays until the cluster is disposed.</summary>
    /// <param name="nodeId">The node's id, from 1.</param>
    /// <exception cref="ArgumentOutOfRangeException">No node has that id.</exception>
    public void KillNode(int nodeId)
    {
        if (nodeId < 1 || nodeId > Nodes.Count)
            throw new ArgumentOutOfRangeException(nameof(nodeId), nodeId, $"The cluster has nodes 1 to {Nodes.Count}.");
        Nodes[nodeId - 1].Kill();
    }

    /// <summary>Ends every node's JVM at once with SIGKILL and deletes the data folder, then waits at most a second per node,
    /// for a process that is about to end itself: a stopped JVM (SIGSTOP) would not notice its owner is gone. Every node is
    /// signalled and the data deleted before any wait: a process ending within a budget may not get past the first wait
    /// (a loaded CI run left a paused broker's data behind that way).</summary>
    public void Kill()
    {
        Interlocked.Exchange(ref _disposed, 1);
        foreach (var node in Nodes) node.SignalKill();
        BrokerDataFolders.DeleteDirectory(DataDirectory);
        foreach (var node in Nodes) node.Kill();
        _network?.Dispose();
        _classArchive?.Complete(cleanExit: false);
        // A node killed while it was writing may have left a file behind the first deletion.
        BrokerDataFolders.DeleteDirectory(DataDirectory);
    }

    /// <summary>Stops every node (each JVM deletes its data and halts) and deletes what is left of the data folder.</summary>
    /// <returns>A task that completes when every JVM is gone.</returns>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0) return;
        bool firstWasRunning = !Nodes[0].Exited.IsCompleted;
        await Task.WhenAll(Nodes.Select(n => BrokerProcess.StopAsync(n.Process, n.DataDirectory))).ConfigureAwait(false);
        _network?.Dispose();
        _classArchive?.Complete(cleanExit: firstWasRunning);
        BrokerDataFolders.DeleteDirectory(DataDirectory);
    }
}
