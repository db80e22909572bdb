using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Adapters.Network;

/// <summary>
/// The shaping proxies of an embedded cluster (<c>--network</c>, network faults): per node, one in front of its client
/// listener and one in front of its inter-broker listener, which the node advertises in place of its own ports, and on a
/// cluster's controllers one in front of the controller listener (never delayed), which the voters' addresses name. The
/// runner shapes them per run (<see cref="ShapeAsync"/>); the first time a spec is asked, the links' real round trip is
/// measured through them. Network faults cut or slow one node's links (<see cref="Cut"/>, <see cref="Slow"/>).
/// </summary>
/// <remarks>Dispose closes every proxy's listener and connections and waits (briefly) until their threads have ended.</remarks>
internal sealed class ProxyNetwork : INetworkShaper, IProxyGate, IDisposable
{
    /// <summary>About how long the round-trip probe of one link lasts: enough echoes for a p99, not more.</summary>
    private static readonly TimeSpan ProbeBudget = TimeSpan.FromSeconds(2);

    private readonly ConcurrentDictionary<NetworkSpec, NetworkRecord> _measured = new();
    private readonly List<(ShapingProxy Client, ShapingProxy Internal)> _nodes;
    private readonly List<ShapingProxy> _controllers = [];
    private readonly Lock _cutLock = new();
    private readonly Dictionary<int, CutKind> _cuts = [];
    private readonly HashSet<int> _slowed = [];

    /// <summary>Opens the proxies' ports (nothing is accepted until <see cref="Start"/>).</summary>
    /// <param name="nodes">How many nodes.</param>
    /// <param name="controllers">How many of them (the first) are controllers with a proxy in front of their controller
    /// listener: none for one node, whose quorum is itself.</param>
    internal ProxyNetwork(int nodes, int controllers = 0)
    {
        _nodes = new(nodes);
        try
        {
            for (int i = 1; i <= nodes; i++)
                _nodes.Add((new ShapingProxy($"kp-n{i}c", Threads, nodeId: i, role: ProxyRole.Client, gate: this),
                    new ShapingProxy($"kp-n{i}b", Threads, nodeId: i, role: ProxyRole.Internal, gate: this)));
            for (int i = 1; i <= controllers; i++) _controllers.Add(new ShapingProxy($"kp-n{i}q", Threads, nodeId: i, role: ProxyRole.Controller, gate: this));
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>Every proxy thread, counted.</summary>
    internal ProxyThreads Threads { get; } = new();

    /// <summary>Where progress lines go (the measured round trips); none when <see langword="null"/>.</summary>
    internal TextWriter? Log { get; set; }

    /// <summary>Node <paramref name="nodeId"/>'s client proxy (from 1).</summary>
    internal ShapingProxy ClientProxy(int nodeId) => _nodes[nodeId - 1].Client;

    /// <summary>Node <paramref name="nodeId"/>'s inter-broker proxy (from 1).</summary>
    internal ShapingProxy InternalProxy(int nodeId) => _nodes[nodeId - 1].Internal;

    /// <summary>Controller <paramref name="nodeId"/>'s proxy (from 1); <see langword="null"/> when it has none.</summary>
    internal ShapingProxy? ControllerProxy(int nodeId) => nodeId <= _controllers.Count ? _controllers[nodeId - 1] : null;

    /// <summary>The nodes' processes now (id and pid), to tell which node opened a peer's link; set once they run.</summary>
    internal Func<IEnumerable<(int NodeId, int Pid)>>? Processes { get; set; }

    /// <summary>Points node <paramref name="nodeId"/>'s proxies at its listeners and starts them.</summary>
    internal void Start(int nodeId, int clientPort, int internalPort, int? controllerPort = null)
    {
        var (client, internalProxy) = _nodes[nodeId - 1];
        client.Target = new IPEndPoint(IPAddress.Loopback, clientPort);
        internalProxy.Target = new IPEndPoint(IPAddress.Loopback, internalPort);
        client.Start();
        internalProxy.Start();
        if (ControllerProxy(nodeId) is { } controller && controllerPort is { } port)
        {
            controller.Target = new IPEndPoint(IPAddress.Loopback, port);
            controller.Start();
        }
    }

    /// <summary>Cuts node <paramref name="nodeId"/> off: <see cref="FaultKind.Partition"/> holds its links open and silent
    /// (from clients only, or from clients and peers), <see cref="FaultKind.Isolate"/> resets them and refuses new ones.
    /// A peer's link is cut when exactly one of its ends is the node: the node's own links to itself go on, as on a host.</summary>
    /// <returns>How many open connections it cut (new ones are parked or reset as they come).</returns>
    internal int Cut(int nodeId, FaultKind kind, bool clientsOnly)
    {
        var how = kind == FaultKind.Isolate ? CutKind.Reset : clientsOnly ? CutKind.SilentFromClients : CutKind.Silent;
        lock (_cutLock) _cuts[nodeId] = how;
        int cut = 0;
        foreach (var proxy in AllProxies())
        {
            foreach (var connection in proxy.Connections)
            {
                if (!Matches(proxy, connection.SourceNode, nodeId, how)) continue;
                cut++;
                if (how == CutKind.Reset) connection.Abort();
                else connection.Hold();
            }
        }
        return cut;
    }

    /// <summary>Adds <paramref name="rtt"/> to the round trip of node <paramref name="nodeId"/>'s links (clients' and
    /// peers' links to it, both ways).</summary>
    internal void Slow(int nodeId, TimeSpan rtt)
    {
        lock (_cutLock) _slowed.Add(nodeId);
        foreach (var shape in LinksTo(nodeId)) shape.SetExtra(rtt / 2);
    }

    /// <summary>Both directions of node <paramref name="nodeId"/>'s client and inter-broker links.</summary>
    private LinkShape[] LinksTo(int nodeId)
    {
        var (client, internalProxy) = _nodes[nodeId - 1];
        return [client.ToNode, client.ToClient, internalProxy.ToNode, internalProxy.ToClient];
    }

    /// <summary>Whether node <paramref name="nodeId"/> is cut off from its peers now (its answers about the cluster are stale).</summary>
    internal bool IsCutFromPeers(int nodeId)
    {
        lock (_cutLock) return _cuts.TryGetValue(nodeId, out var how) && how != CutKind.SilentFromClients;
    }

    /// <summary>Heals node <paramref name="nodeId"/>'s links: a cut's held connections flow again, a slow link is fast again.</summary>
    internal void Restore(int nodeId)
    {
        lock (_cutLock)
        {
            _cuts.Remove(nodeId);
            _slowed.Remove(nodeId);
        }
        foreach (var shape in LinksTo(nodeId)) shape.SetExtra(TimeSpan.Zero);
        foreach (var proxy in AllProxies())
        {
            foreach (var connection in proxy.Connections)
            {
                if (!IsHeldByAnother(proxy, connection.SourceNode)) connection.Release();
            }
            proxy.Unpark();
        }
    }

    /// <summary>Heals every node's links.</summary>
    /// <returns>Whether any was cut or slowed.</returns>
    internal bool RestoreAll()
    {
        int[] nodes;
        lock (_cutLock) nodes = [.. _cuts.Keys.Union(_slowed)];
        foreach (int node in nodes) Restore(node);
        return nodes.Length > 0;
    }

    /// <inheritdoc />
    public int? SourceOf(Socket accepted)
    {
        if (Processes is not { } processes || accepted.RemoteEndPoint is not IPEndPoint remote || accepted.LocalEndPoint is not IPEndPoint local) return null;
        try
        {
            var nodes = processes().ToList();
            int? pid = LoopbackOwner.Find(remote, local, nodes.Select(n => n.Pid));
            return pid is { } p ? nodes.First(n => n.Pid == p).NodeId : null;
        }
        catch (InvalidOperationException)
        {
            // A node's process went meanwhile (a failed start being undone).
            return null;
        }
    }

    /// <inheritdoc />
    public ProxyAdmission Admit(ShapingProxy proxy, int? source)
    {
        lock (_cutLock)
        {
            foreach (var (node, how) in _cuts)
            {
                if (Matches(proxy, source, node, how)) return how == CutKind.Reset ? ProxyAdmission.Refuse : ProxyAdmission.Hold;
            }
        }
        return ProxyAdmission.Flow;
    }

    /// <summary>How a node is cut off.</summary>
    private enum CutKind
    {
        /// <summary>Links held open and silent, from clients and peers.</summary>
        Silent,

        /// <summary>Links held open and silent, from clients only.</summary>
        SilentFromClients,

        /// <summary>Links reset, new ones refused.</summary>
        Reset,
    }

    private static bool Matches(ShapingProxy proxy, int? source, int node, CutKind how) => proxy.Role == ProxyRole.Client
        ? proxy.NodeId == node
        : how != CutKind.SilentFromClients && (proxy.NodeId == node) != (source == node);

    private bool IsHeldByAnother(ShapingProxy proxy, int? source)
    {
        lock (_cutLock) return _cuts.Any(c => Matches(proxy, source, c.Key, c.Value));
    }

    private IEnumerable<ShapingProxy> AllProxies() => _nodes.SelectMany(n => new[] { n.Client, n.Internal }).Concat(_controllers);

    /// <inheritdoc />
    public double? CpuSeconds => Threads.CpuSeconds;

    /// <inheritdoc />
    public long ForwardedBytes => _nodes.Sum(n => n.Client.ForwardedBytes + n.Internal.ForwardedBytes);

    /// <inheritdoc />
    public async Task<NetworkRecord> ShapeAsync(NetworkSpec spec, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(spec);
        foreach (var (client, internalProxy) in _nodes)
        {
            client.Set(spec.ClientOneWay, spec.Jitter, spec.RateBitsPerSecond);
            internalProxy.Set(spec.BrokerOneWay, spec.Jitter, spec.RateBitsPerSecond);
        }
        if (_measured.TryGetValue(spec, out var known)) return known;
        var record = await Task.Factory.StartNew(() => Measure(spec), cancellationToken, TaskCreationOptions.LongRunning, TaskScheduler.Default)
            .ConfigureAwait(false);
        _measured[spec] = record;
        Log?.WriteLine($"kafkaperf: network {spec}: client link {Describe(record.ClientLink!, spec.ClientRtt)}"
            + (record.BrokerLink is { } broker ? $"; between brokers {Describe(broker, spec.BrokerRtt)}" : string.Empty)
            + string.Create(CultureInfo.InvariantCulture, $"; an ApiVersions request to node 1 through it p50 {record.ClientRequest!.P50Micros / 1000:0.00} ms, p99 {record.ClientRequest.P99Micros / 1000:0.00} ms"));
        return record;
    }

    /// <summary>A measured link beside the asked round trip, e.g. <c>round trip p50 5.04 ms, p99 5.21 ms (asked 5 ms; 400
    /// echoes)</c>.</summary>
    internal static string Describe(LinkRoundTrip link, TimeSpan asked) => string.Create(CultureInfo.InvariantCulture,
        $"round trip p50 {link.P50Micros / 1000:0.00} ms, p99 {link.P99Micros / 1000:0.00} ms (asked {asked.TotalMilliseconds:0.###} ms; {link.Samples} echoes)");

    private NetworkRecord Measure(NetworkSpec spec)
    {
        var timeout = spec.ClientRtt * 4 + TimeSpan.FromSeconds(10);
        var record = new NetworkRecord
        {
            Asked = spec.ToString(),
            AskedClientRttMicros = spec.ClientRtt.TotalMicroseconds,
            AskedBrokerRttMicros = spec.BrokerRtt.TotalMicroseconds,
            ClientLink = LinkRoundTrip.Of("client", EchoProbe.Measure(_nodes[0].Client, Samples(spec.ClientRtt), Warmup, timeout)),
            ClientRequest = LinkRoundTrip.Of("client-request", ApiVersionsProbe.Measure(
                new IPEndPoint(IPAddress.Loopback, _nodes[0].Client.Port), Samples(spec.ClientRtt) / 4, Warmup, timeout)),
        };
        return _nodes.Count > 1
            ? record with { BrokerLink = LinkRoundTrip.Of("broker", EchoProbe.Measure(_nodes[0].Internal, Samples(spec.BrokerRtt), Warmup, spec.BrokerRtt * 4 + TimeSpan.FromSeconds(10))) }
            : record;
    }

    private const int Warmup = 20;

    /// <summary>Enough samples for a p99 within <see cref="ProbeBudget"/>: 400 at 5 ms or less, 100 at 20 ms.</summary>
    private static int Samples(TimeSpan rtt) => (int)Math.Clamp(ProbeBudget / TimeSpan.FromTicks(Math.Max(rtt.Ticks, 1)), 100, 400);

    /// <summary>Closes every proxy and waits up to 2 s for their threads to end.</summary>
    public void Dispose()
    {
        foreach (var (client, internalProxy) in _nodes)
        {
            client.Dispose();
            internalProxy.Dispose();
        }
        foreach (var controller in _controllers) controller.Dispose();
        Threads.WaitEnded(TimeSpan.FromSeconds(2));
    }
}
