using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace KafkaPerf.Adapters.Network;

/// <summary>Times a link's real round trip: Kafka <c>ApiVersions</c> requests (version 0, which every broker answers from
/// memory, before any authentication) sent one after another on one connection, each from its send to its whole answer.</summary>
internal static class ApiVersionsProbe
{
    private const short ApiVersionsKey = 18;
    private const string ClientId = "kafkaperf-link-probe";

    /// <summary>Round trips in microseconds, after <paramref name="warmup"/> untimed ones (the connection's first).</summary>
    /// <param name="target">The node's or its proxy's address.</param>
    /// <param name="samples">Requests timed.</param>
    /// <param name="warmup">Requests sent first, not timed.</param>
    /// <param name="timeout">How long one answer may take.</param>
    /// <returns>The round trips.</returns>
    /// <exception cref="IOException">The node did not answer as Kafka does.</exception>
    internal static List<double> Measure(IPEndPoint target, int samples, int warmup, TimeSpan timeout)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp)
        {
            NoDelay = true,
            ReceiveTimeout = (int)timeout.TotalMilliseconds,
            SendTimeout = (int)timeout.TotalMilliseconds,
        };
        socket.Connect(target);
        ThreadCpu.RaisePriority();
        var request = new byte[4 + 2 + 2 + 4 + 2 + ClientId.Length];
        BinaryPrimitives.WriteInt32BigEndian(request, request.Length - 4);
        BinaryPrimitives.WriteInt16BigEndian(request.AsSpan(4), ApiVersionsKey);
        BinaryPrimitives.WriteInt16BigEndian(request.AsSpan(6), 0);
        BinaryPrimitives.WriteInt16BigEndian(request.AsSpan(12), (short)ClientId.Length);
        System.Text.Encoding.ASCII.GetBytes(ClientId, request.AsSpan(14));
        var answer = new byte[64 * 1024];
        var micros = new List<double>(samples);
        for (int i = 0; i < warmup + samples; i++)
        {
            BinaryPrimitives.WriteInt32BigEndian(request.AsSpan(8), i);
            long sent = Stopwatch.GetTimestamp();
            socket.Send(request);
            ReadExactly(socket, answer, 4);
            int size = BinaryPrimitives.ReadInt32BigEndian(answer);
            if (size < 4 || size > answer.Length) throw new IOException($"{target} answered ApiVersions with a frame of {size} bytes: not a Kafka broker?");
            ReadExactly(socket, answer, size);
            long received = Stopwatch.GetTimestamp();
            if (BinaryPrimitives.ReadInt32BigEndian(answer) != i) throw new IOException($"{target} answered ApiVersions out of order.");
            if (i >= warmup) micros.Add((received - sent) * 1e6 / Stopwatch.Frequency);
        }
        return micros;
    }

    private static void ReadExactly(Socket socket, byte[] buffer, int count)
    {
        for (int read = 0; read < count;)
        {
            int n = socket.Receive(buffer, read, count - read, SocketFlags.None);
            if (n == 0) throw new IOException("The node closed the connection during the round-trip probe.");
            read += n;
        }
    }
}

/// <summary>Times a link alone: 64-byte messages echoed back through a proxy that shares the link's shaping (its two
/// directions' delay, jitter and rate), to an <see cref="EchoEndpoint"/> instead of the node, so that no node's answer
/// time is in the figure.</summary>
internal static class EchoProbe
{
    /// <summary>Round trips in microseconds, after <paramref name="warmup"/> untimed ones.</summary>
    internal static List<double> Measure(ShapingProxy link, int samples, int warmup, TimeSpan timeout)
    {
        using var echo = new EchoEndpoint();
        var threads = new ProxyThreads();
        using (var probe = new ShapingProxy("kp-probe", threads, (link.ToNode, link.ToClient)) { Target = new IPEndPoint(IPAddress.Loopback, echo.Port) })
        {
            probe.Start();
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp)
            {
                NoDelay = true,
                ReceiveTimeout = (int)timeout.TotalMilliseconds,
            };
            socket.Connect(new IPEndPoint(IPAddress.Loopback, probe.Port));
            ThreadCpu.RaisePriority();
            var buffer = new byte[64];
            var micros = new List<double>(samples);
            for (int i = 0; i < warmup + samples; i++)
            {
                long sent = Stopwatch.GetTimestamp();
                socket.Send(buffer);
                for (int read = 0; read < buffer.Length;)
                {
                    int n = socket.Receive(buffer, read, buffer.Length - read, SocketFlags.None);
                    if (n == 0) throw new IOException("The link's probe connection closed.");
                    read += n;
                }
                if (i >= warmup) micros.Add((Stopwatch.GetTimestamp() - sent) * 1e6 / Stopwatch.Frequency);
            }
            return micros;
        }
    }
}
