using System.Net;
using System.Net.Sockets;

namespace KafkaPerf.Adapters.Network;

/// <summary>A loopback TCP echo server: every byte received goes straight back, on a thread per connection (raised in
/// priority as the proxy's are). The far end of a link's round-trip probe, so that the link is timed without a node's
/// own answer time.</summary>
internal sealed class EchoEndpoint : IDisposable
{
    private readonly Socket _listener = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
    private readonly List<Socket> _accepted = [];

    public EchoEndpoint()
    {
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(16);
        Port = ((IPEndPoint)_listener.LocalEndPoint!).Port;
        new Thread(Accept) { IsBackground = true, Name = "kp-echo-accept" }.Start();
    }

    public int Port { get; }

    private void Accept()
    {
        while (true)
        {
            Socket socket;
            try
            {
                socket = _listener.Accept();
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
                return;
            }
            socket.NoDelay = true;
            lock (_accepted) _accepted.Add(socket);
            new Thread(() => Echo(socket)) { IsBackground = true, Name = "kp-echo" }.Start();
        }
    }

    private static void Echo(Socket socket)
    {
        ThreadCpu.RaisePriority();
        var buffer = new byte[64 * 1024];
        while (true)
        {
            int n = socket.Receive(buffer, 0, buffer.Length, SocketFlags.None, out var error);
            if (error != SocketError.Success || n == 0) return;
            for (int sent = 0; sent < n;)
            {
                int s = socket.Send(buffer, sent, n - sent, SocketFlags.None, out error);
                if (error != SocketError.Success) return;
                sent += s;
            }
        }
    }

    public void Dispose()
    {
        _listener.Dispose();
        lock (_accepted)
            foreach (var socket in _accepted) socket.Dispose();
    }
}
