using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using KafkaPerf.Adapters.Network;

namespace KafkaPerf.Adapters.Tests.Network;

/// <summary>The shaping proxy as an instrument, on a loopback echo server: its delay's precision, its order, its rate, no
/// allocation per forwarded buffer after warm-up, and nothing left behind when it closes. Alone in its assembly: its
/// threads' timing is what it measures, and its raised-priority threads would take time from tests beside it.</summary>
[Collection(ProcessCountersCollectionDefinition.Name)]
public class ShapingProxyTests
{
    [Fact]
    public void ShapingProxy_Rtt5ms_EchoNeverEarlyAndShortestWithinHalfAMillisecond()
    {
        using var echo = new EchoEndpoint();
        var threads = new ProxyThreads();
        using (var proxy = Started(echo, threads))
        {
            proxy.Set(TimeSpan.FromMilliseconds(2.5), TimeSpan.Zero, null);
            using var socket = Connect(proxy);
            // Timed from a thread of its own at the proxy's priority, as the link probe is: a test-pool thread at the
            // normal priority wakes late on a busy machine, and that would be the test's lateness, not the proxy's.
            List<double> micros = [];
            var timing = new Thread(() =>
            {
                ThreadCpu.RaisePriority();
                micros = RoundTrips(socket, samples: 300, warmup: 20, bytes: 64);
            }) { Name = "test-rtt" };
            timing.Start();
            timing.Join();
            double p50 = Median(micros);
            TestContext.Current.TestOutputHelper?.WriteLine($"rtt=5ms through the proxy: p50 {p50:0} µs, p99 {Percentile(micros, 0.99):0} µs, min {micros.Min():0} µs");
            // Never early, and on time when the machine lets it be: the shortest of 300 is within 0.5 ms of the asked round
            // trip. The median is the proxy's only on a quiet machine (docs/BENCHMARKS.md, "The network": 5.25-5.34 ms);
            // CI runs four test processes on two cores (load 18), and there its median was 8.0 ms while its shortest was 5.4.
            Assert.InRange(micros.Min(), 4_990, 5_500);
            Assert.True(p50 >= 4_990, $"the median round trip {p50:0} µs is shorter than asked");
        }
        Assert.True(threads.WaitEnded(TimeSpan.FromSeconds(5)), $"{threads.Living} proxy thread(s) still run after it closed");
    }

    [Fact]
    public void ShapingProxy_ManyBuffersAfterWarmup_AllocatesNothingPerBuffer()
    {
        using var echo = new EchoEndpoint();
        var threads = new ProxyThreads();
        const int Buffers = 20_000;
        using (var proxy = Started(echo, threads))
        {
            using var socket = Connect(proxy);
            var buffer = new byte[1024];
            var back = new byte[1024];
            for (int i = 0; i < Buffers; i++)
            {
                socket.Send(buffer);
                for (int read = 0; read < back.Length;) read += socket.Receive(back, read, back.Length - read, SocketFlags.None);
            }
        }
        Assert.True(threads.WaitEnded(TimeSpan.FromSeconds(5)));
        // Each pipe thread reports what it allocated after its first 64 chunks, when it ends. One allocation per buffer
        // would be at least 24 bytes × 80 000 chunks ≈ 1.9 MB; what a thread sets up once, late (its first contended
        // wait, seen as 0 to 80 bytes in all), is allowed, and nothing more.
        long chunks = threads.ChunksAfterWarmup;
        long allocated = threads.AllocatedAfterWarmupBytes;
        TestContext.Current.TestOutputHelper?.WriteLine($"the proxy's threads allocated {allocated} bytes over {chunks} chunks after warm-up");
        Assert.True(chunks > Buffers, $"only {chunks} chunks were counted after warm-up");
        Assert.True(allocated <= 1024, $"the proxy allocated {allocated} bytes over {chunks} chunks after warm-up: {(double)allocated / chunks:0.###} per chunk");
    }

    [Fact]
    public void ShapingProxy_WithJitter_KeepsEachConnectionsOrder()
    {
        using var echo = new EchoEndpoint();
        var threads = new ProxyThreads();
        using var proxy = Started(echo, threads);
        proxy.Set(TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(1), null);
        using var socket = Connect(proxy);
        // 200 small writes in quick succession: each chunk gets its own jittered delay, yet none may overtake another.
        var sent = new byte[200 * 4];
        for (int i = 0; i < 200; i++)
        {
            System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(sent.AsSpan(i * 4), i);
            socket.Send(sent, i * 4, 4, SocketFlags.None);
        }
        var received = new byte[sent.Length];
        for (int read = 0; read < received.Length;) read += socket.Receive(received, read, received.Length - read, SocketFlags.None);
        Assert.Equal(sent, received);
    }

    [Fact]
    public async Task ShapingProxy_Rate8Mbit_TakesAsLongAsTheRateSays()
    {
        using var echo = new EchoEndpoint();
        var threads = new ProxyThreads();
        using var proxy = Started(echo, threads);
        proxy.Set(TimeSpan.Zero, TimeSpan.Zero, 8_000_000);
        using var socket = Connect(proxy);
        // 1 MB/s each way: 512 KB there and back take (512 KB - the 64 KB burst) / 1 MB/s ≈ 0.46 s, once per direction in
        // a pipeline, so about 0.46 s in all.
        var data = new byte[512 * 1024];
        var back = new byte[data.Length];
        long started = Stopwatch.GetTimestamp();
        var sender = Task.Run(() => socket.Send(data), TestContext.Current.CancellationToken);
        for (int read = 0; read < back.Length;) read += socket.Receive(back, read, back.Length - read, SocketFlags.None);
        var elapsed = Stopwatch.GetElapsedTime(started);
        await sender;
        Assert.InRange(elapsed.TotalSeconds, 0.40, 1.5);
    }

    [Fact]
    public void ShapingProxy_Disposed_ResetsItsConnectionsAndEndsItsThreads()
    {
        using var echo = new EchoEndpoint();
        var threads = new ProxyThreads();
        var proxy = Started(echo, threads);
        using var socket = Connect(proxy);
        socket.Send(new byte[10]);
        var back = new byte[10];
        for (int read = 0; read < back.Length;) read += socket.Receive(back, read, back.Length - read, SocketFlags.None);
        Assert.Equal(1, proxy.OpenConnections);
        proxy.Dispose();
        Assert.True(threads.WaitEnded(TimeSpan.FromSeconds(5)), $"{threads.Living} proxy thread(s) still run");
        socket.ReceiveTimeout = 5000;
        int n = socket.Receive(back, 0, back.Length, SocketFlags.None, out var error);
        Assert.True(n == 0 || error != SocketError.Success, "the client's connection stayed open after the proxy closed");
        Assert.Throws<SocketException>(() => Connect(proxy));
    }

    [Fact]
    public async Task ShapingProxy_BothSidesClose_EveryByteArrivesBeforeTheEnd()
    {
        // A node that sends 1 MB and closes, to a client that reads only later and has closed its own side: the proxy
        // passes the end on after the last byte, and closing both sides then loses nothing (a reset would).
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        var payload = new byte[1024 * 1024];
        new Random(7).NextBytes(payload);
        var node = Task.Run(() =>
        {
            using var accepted = listener.Accept();
            accepted.Send(payload);
            accepted.Shutdown(SocketShutdown.Both);
        }, TestContext.Current.CancellationToken);
        var threads = new ProxyThreads();
        using var proxy = new ShapingProxy("test", threads) { Target = (IPEndPoint)listener.LocalEndPoint! };
        proxy.Start();
        proxy.Set(TimeSpan.FromMilliseconds(1), TimeSpan.Zero, null);
        using var socket = Connect(proxy);
        socket.Shutdown(SocketShutdown.Send);
        await node;
        await Task.Delay(200, TestContext.Current.CancellationToken);

        var received = new MemoryStream();
        var buffer = new byte[64 * 1024];
        int n;
        while ((n = socket.Receive(buffer)) > 0) received.Write(buffer, 0, n);

        Assert.Equal(payload, received.ToArray());
    }

    internal static ShapingProxy Started(EchoEndpoint echo, ProxyThreads threads)
    {
        var proxy = new ShapingProxy("test", threads) { Target = new IPEndPoint(IPAddress.Loopback, echo.Port) };
        proxy.Start();
        return proxy;
    }

    internal static Socket Connect(ShapingProxy proxy)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, ReceiveTimeout = 10_000 };
        socket.Connect(new IPEndPoint(IPAddress.Loopback, proxy.Port));
        return socket;
    }

    internal static List<double> RoundTrips(Socket socket, int samples, int warmup, int bytes)
    {
        var buffer = new byte[bytes];
        var micros = new List<double>(samples);
        for (int i = 0; i < warmup + samples; i++)
        {
            long started = Stopwatch.GetTimestamp();
            socket.Send(buffer);
            for (int read = 0; read < bytes;) read += socket.Receive(buffer, read, bytes - read, SocketFlags.None);
            if (i >= warmup) micros.Add(Stopwatch.GetElapsedTime(started).TotalMicroseconds);
        }
        return micros;
    }

    internal static double Median(List<double> values) => Percentile(values, 0.5);

    internal static double Percentile(List<double> values, double p)
    {
        var sorted = values.Order().ToList();
        return sorted[Math.Clamp((int)Math.Ceiling(p * sorted.Count) - 1, 0, sorted.Count - 1)];
    }
}
