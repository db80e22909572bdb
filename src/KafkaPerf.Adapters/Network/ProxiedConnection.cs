using System.Net.Sockets;

namespace KafkaPerf.Adapters.Network;

/// <summary>One client connection through a <see cref="ShapingProxy"/>: the accepted socket, the one to the node, and a
/// <see cref="ShapedPipe"/> each way. A side that finishes sending is passed on (a half close) at its due time; a reset
/// or an error on either side closes both at once.</summary>
internal sealed class ProxiedConnection
{
    private readonly Socket _client;
    private readonly Socket _upstream;
    private readonly ShapedPipe _toNode;
    private readonly ShapedPipe _toClient;
    private readonly Action<ProxiedConnection> _closed;
    private int _finished;
    private int _disposed;

    internal ProxiedConnection(Socket client, Socket upstream, ShapingProxy proxy, ProxyThreads threads, ulong seed, Action<ProxiedConnection> closed,
        CancellationToken stop, int? sourceNode = null)
    {
        SourceNode = sourceNode;
        _client = client;
        _upstream = upstream;
        _closed = closed;
        _toNode = new ShapedPipe(client, upstream, proxy.ToNode, this, threads, seed, stop);
        _toClient = new ShapedPipe(upstream, client, proxy.ToClient, this, threads, seed * 31 + 7, stop);
    }

    /// <summary>The node whose process opened the connection (a peer's link); <see langword="null"/> for a client's, or
    /// when it could not be told.</summary>
    internal int? SourceNode { get; }

    /// <summary>Set while bytes flow; reset while a partition holds them (both directions wait, the sockets stay open).</summary>
    internal ManualResetEventSlim Flowing { get; } = new(initialState: true);

    /// <summary>Holds both directions: what arrives is kept (up to the rings, then TCP's windows fill), nothing is sent.</summary>
    internal void Hold() => Flowing.Reset();

    /// <summary>Lets both directions flow again; what was held goes at once.</summary>
    internal void Release() => Flowing.Set();

    /// <summary>Starts both directions' threads, named <c>{name}u…</c> (toward the node) and <c>{name}d…</c>.</summary>
    internal void Start(string name)
    {
        _toNode.Start(name + "u");
        _toClient.Start(name + "d");
    }

    /// <summary>One direction's sender finished: the side it sends to hears the end; once both have, the sockets close.</summary>
    internal void Finished(Socket to)
    {
        try
        {
            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
        }
        // Both sides said they are done and all was sent: a plain close, which lets the kernel deliver what it still holds.
        if (Interlocked.Increment(ref _finished) == 2) Close(reset: false);
    }

    /// <summary>Closes both sockets at once, resetting them, and ends both directions' threads.</summary>
    internal void Abort() => Close(reset: true);

    private void Close(bool reset)
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0) return;
        _toNode.Close();
        _toClient.Close();
        // A writer held by a partition wakes, finds its socket closed and ends.
        Flowing.Set();
        foreach (var socket in new[] { _client, _upstream })
        {
            // Linger 0: a connection broken on one side is reset on the other, not left half open.
            if (reset)
            {
                try
                {
                    socket.LingerState = new LingerOption(true, 0);
                }
                catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
                {
                }
            }
            socket.Dispose();
        }
        _closed(this);
    }
}
