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
    private readonly Lock _gate = new();
    private readonly HashSet<ProxiedConnection> _connections = [];
    private readonly string _name;
    private int _accepted;
    private bool _disposed;

    /// <param name="name">A short name for its threads, e.g. <c>n1c</c> (node 1's client link).</param>
    /// <param name="threads">Where its threads are started and counted.</param>
    /// <param name="shapes">The link's two directions, when this proxy shares another's (a probe of its link); its own otherwise.</param>
    internal ShapingProxy(string name, ProxyThreads threads, (LinkShape ToNode, LinkShape ToClient)? shapes = null)
    {
        ToNode = shapes?.ToNode ?? new LinkShape();
        ToClient = shapes?.ToClient ?? new LinkShape();
        _name = name;
        _threads = threads;
        _listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(128);
        Port = ((IPEndPoint)_listener.LocalEndPoint!).Port;
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
            lock (_gate) return _connections.Count;
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
            var upstream = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            try
            {
                // Nagle would hold small requests back by up to 40 ms: the delay must be the link's alone.
                client.NoDelay = true;
                upstream.NoDelay = true;
                upstream.Connect(Target!);
            }
            catch (SocketException)
            {
                // The node is down (killed, restarting): the client is refused, as it would be without the proxy.
                client.LingerState = new LingerOption(true, 0);
                client.Dispose();
                upstream.Dispose();
                continue;
            }
            int number = Interlocked.Increment(ref _accepted);
            var connection = new ProxiedConnection(client, upstream, this, _threads, (ulong)Environment.TickCount64 ^ ((ulong)number << 32), Closed, _stop.Token);
            lock (_gate)
            {
                if (_disposed)
                {
                    connection.Abort();
                    return;
                }
                _connections.Add(connection);
            }
            connection.Start($"{_name}{number}");
        }
    }

    private void Closed(ProxiedConnection connection)
    {
        lock (_gate) _connections.Remove(connection);
    }

    /// <summary>Closes the listener and every connection.</summary>
    public void Dispose()
    {
        ProxiedConnection[] open;
        lock (_gate)
        {
            if (_disposed) return;
            _disposed = true;
            open = [.. _connections];
        }
        _stop.Cancel();
        _listener.Dispose();
        foreach (var connection in open) connection.Abort();
        _stop.Dispose();
    }
}
