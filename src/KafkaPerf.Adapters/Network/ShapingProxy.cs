using System.Net;
using System.Net.Sockets;

namespace KafkaPerf.Adapters.Network;

/// <summary>
/// A TCP proxy on a loopback port of its own in front of one listener of one node: every connection accepted is connected
/// on to the node, and each direction's bytes are held for the link's one-way delay (± jitter) and its rate before they
/// go on (<see cref="ShapedPipe"/>). The node advertises this proxy's address, so every client reaches it through here.
/// </summary>
/// <remarks>Threads: one accepting, two per direction of each connection, all named <c>{name}…</c>. Dispose closes the
/// listener and every connection (the clients see a reset) and ends every thread.</remarks>
internal sealed class ShapingProxy : IDisposable
{
    private readonly Socket _listener;
    private readonly ProxyThreads _threads;
    private readonly CancellationTokenSource _stop = new();
    private readonly Lock _lock = new();
    private readonly IProxyGate? _gate;
    private readonly HashSet<ProxiedConnection> _connections = [];
    private readonly List<(Socket Client, int? Source)> _parked = [];
    private readonly string _name;
    private int _accepted;
    private bool _disposed;

    /// <param name="name">A short name for its threads, e.g. <c>n1c</c> (node 1's client link).</param>
    /// <param name="threads">Where its threads are started and counted.</param>
    /// <param name="shapes">The link's two directions, when this proxy shares another's (a probe of its link); its own otherwise.</param>
    /// <param name="nodeId">The node it stands in front of (0: none, a probe's).</param>
    /// <param name="role">Which of the node's listeners.</param>
    /// <param name="gate">Says whether a connection may flow (network faults); every one does without it.</param>
    internal ShapingProxy(string name, ProxyThreads threads, (LinkShape ToNode, LinkShape ToClient)? shapes = null, int nodeId = 0,
        ProxyRole role = ProxyRole.Client, IProxyGate? gate = null)
    {
        NodeId = nodeId;
        Role = role;
        _gate = gate;
        ToNode = shapes?.ToNode ?? new LinkShape();
        ToClient = shapes?.ToClient ?? new LinkShape();
        _name = name;
        _threads = threads;
        _listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(128);
        Port = ((IPEndPoint)_listener.LocalEndPoint!).Port;
    }

    /// <summary>The node it stands in front of.</summary>
    internal int NodeId { get; }

    /// <summary>Which of the node's listeners.</summary>
    internal ProxyRole Role { get; }

    /// <summary>The connections open now.</summary>
    internal ProxiedConnection[] Connections
    {
        get
        {
            lock (_lock) return [.. _connections];
        }
    }

    /// <summary>The loopback port clients connect to.</summary>
    internal int Port { get; }

    /// <summary>Where accepted connections go on to; set before <see cref="Start"/>.</summary>
    internal IPEndPoint? Target { get; set; }

    /// <summary>The direction from clients to the node.</summary>
    internal LinkShape ToNode { get; }

    /// <summary>The direction from the node to clients.</summary>
    internal LinkShape ToClient { get; }

    /// <summary>Connections open now.</summary>
    internal int OpenConnections
    {
        get
        {
            lock (_lock) return _connections.Count;
        }
    }

    /// <summary>Bytes sent on, both directions.</summary>
    internal long ForwardedBytes => ToNode.ForwardedBytes + ToClient.ForwardedBytes;

    /// <summary>Shapes both directions alike from now on.</summary>
    internal void Set(TimeSpan oneWay, TimeSpan jitter, long? rateBitsPerSecond)
    {
        ToNode.Set(oneWay, jitter, rateBitsPerSecond);
        ToClient.Set(oneWay, jitter, rateBitsPerSecond);
    }

    /// <summary>Starts accepting.</summary>
    internal void Start()
    {
        if (Target is null) throw new InvalidOperationException("The proxy has no target.");
        _threads.Start(_name + "-accept", Accept);
    }

    private void Accept()
    {
        while (true)
        {
            Socket client;
            try
            {
                client = _listener.Accept();
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
                return;
            }
            // A peer's link: which node opened it, so that a partition cuts the links of one node and no other.
            int? source = Role == ProxyRole.Client || _gate is null ? null : _gate.SourceOf(client);
            switch (_gate?.Admit(this, source) ?? ProxyAdmission.Flow)
            {
                case ProxyAdmission.Refuse:
                    // An isolated node: the connection is reset, as a host that answers with RST would.
                    Reset(client);
                    break;
                case ProxyAdmission.Hold:
                    // A partition: the connection is parked - no thread, no buffer, nothing sent on - until it heals. What the
                    // client sends meanwhile waits in the kernel, as a real partition leaves it unacknowledged.
                    lock (_lock)
                    {
                        if (_disposed)
                        {
                            Reset(client);
                            return;
                        }
                        _parked.Add((client, source));
                    }
                    break;
                default:
                    if (!Connect(client, source)) return;
                    break;
            }
        }
    }

    /// <summary>Connects an accepted client on to the node and starts its pipes; false once the proxy is disposed.</summary>
    private bool Connect(Socket client, int? source)
    {
        var upstream = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            // Nagle would hold small requests back by up to 40 ms: the delay must be the link's alone.
            client.NoDelay = true;
            upstream.NoDelay = true;
            upstream.Connect(Target!);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // The node is down (killed, restarting), or the client went: the client is refused, as it would be without the proxy.
            Reset(client);
            upstream.Dispose();
            return true;
        }
        int number = Interlocked.Increment(ref _accepted);
        var connection = new ProxiedConnection(client, upstream, this, _threads, (ulong)Environment.TickCount64 ^ ((ulong)number << 32), Closed, _stop.Token, source);
        lock (_lock)
        {
            if (_disposed)
            {
                connection.Abort();
                return false;
            }
            _connections.Add(connection);
        }
        connection.Start($"{_name}{number}");
        return true;
    }

    /// <summary>Connects on the parked connections a partition no longer holds (it healed), and resets those it now
    /// refuses.</summary>
    internal void Unpark()
    {
        List<(Socket Client, int? Source)> released = [];
        List<Socket> refused = [];
        lock (_lock)
        {
            for (int i = _parked.Count - 1; i >= 0; i--)
            {
                var admission = _gate?.Admit(this, _parked[i].Source) ?? ProxyAdmission.Flow;
                if (admission == ProxyAdmission.Hold) continue;
                if (admission == ProxyAdmission.Refuse) refused.Add(_parked[i].Client);
                else released.Add(_parked[i]);
                _parked.RemoveAt(i);
            }
        }
        foreach (var client in refused) Reset(client);
        // In the order they came.
        for (int i = released.Count - 1; i >= 0; i--)
        {
            if (!Connect(released[i].Client, released[i].Source)) return;
        }
    }

    /// <summary>Connections parked by a partition now.</summary>
    internal int Parked
    {
        get
        {
            lock (_lock) return _parked.Count;
        }
    }

    private static void Reset(Socket socket)
    {
        try
        {
            socket.LingerState = new LingerOption(true, 0);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }
        socket.Dispose();
    }

    private void Closed(ProxiedConnection connection)
    {
        lock (_lock) _connections.Remove(connection);
    }

    /// <summary>Closes the listener and every connection.</summary>
    public void Dispose()
    {
        ProxiedConnection[] open;
        lock (_lock)
        {
            if (_disposed) return;
            _disposed = true;
            open = [.. _connections];
            foreach (var (client, _) in _parked) Reset(client);
            _parked.Clear();
        }
        _stop.Cancel();
        _listener.Dispose();
        foreach (var connection in open) connection.Abort();
        _stop.Dispose();
    }
}

/// <summary>Which listener of a node a proxy stands in front of.</summary>
internal enum ProxyRole
{
    /// <summary>The clients' listener.</summary>
    Client,

    /// <summary>The inter-broker listener (replication, the brokers' own requests).</summary>
    Internal,

    /// <summary>The KRaft controller listener (the quorum, the brokers' heartbeats).</summary>
    Controller,
}

/// <summary>What becomes of a connection a proxy accepts.</summary>
internal enum ProxyAdmission
{
    /// <summary>It flows.</summary>
    Flow,

    /// <summary>It is held open and silent (a partition).</summary>
    Hold,

    /// <summary>It is reset (an isolated node).</summary>
    Refuse,
}

/// <summary>Decides, per connection, what a network fault does to it.</summary>
internal interface IProxyGate
{
    /// <summary>The node whose process opened the accepted socket's other end; <see langword="null"/> when none or unknown.</summary>
    int? SourceOf(Socket accepted);

    /// <summary>What becomes of a new connection through <paramref name="proxy"/> from <paramref name="source"/>.</summary>
    ProxyAdmission Admit(ShapingProxy proxy, int? source);
}
