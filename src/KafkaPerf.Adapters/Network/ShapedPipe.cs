using System.Net.Sockets;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Adapters.Network;

/// <summary>One direction of one proxied connection: a reading thread takes chunks off one socket into a ring of
/// preallocated buffers, each stamped with its due time (<see cref="LinkShape.DueAt"/>); a writing thread waits for each
/// chunk's due time (<see cref="PreciseWait"/>) and sends it on, in arrival order. Nothing is allocated per chunk: the
/// ring's buffers are the pool, and a full ring stops the reader, as a full TCP window would.</summary>
internal sealed class ShapedPipe
{
    /// <summary>Buffers in the ring.</summary>
    internal const int Slots = 32;

    /// <summary>Bytes per buffer: a receive takes at most this much at once.</summary>
    internal const int SlotBytes = 16 * 1024;

    /// <summary>How long before a chunk's due time its writer stops sleeping and spins: 100 µs, where the load generator
    /// spins for 300. A proxy waits for every chunk of every link (thousands a second on a cluster at a rate), and spinning
    /// 300 µs for each took up to two thirds of a core of 2 (docs/BENCHMARKS.md, "The shaping proxy's spin margin"); a sleep ends
    /// about 50 µs late at the median, so 100 µs still covers most wake-ups.</summary>
    internal static readonly long SpinTicks = (long)(TimeSpan.FromMicroseconds(100).TotalSeconds * System.Diagnostics.Stopwatch.Frequency);

    private readonly byte[][] _buffers = new byte[Slots][];
    private readonly int[] _lengths = new int[Slots];
    private readonly long[] _due = new long[Slots];
    private readonly object _gate = new();
    private readonly Socket _from;
    private readonly Socket _to;
    private readonly LinkShape _shape;
    private readonly ProxiedConnection _owner;
    private readonly ProxyThreads _threads;
    private readonly CancellationToken _stop;
    private int _head;
    private int _count;
    private bool _closed;
    private long _lastDue;
    private ulong _random;

    internal ShapedPipe(Socket from, Socket to, LinkShape shape, ProxiedConnection owner, ProxyThreads threads, ulong seed, CancellationToken stop)
    {
        for (int i = 0; i < Slots; i++) _buffers[i] = new byte[SlotBytes];
        _from = from;
        _to = to;
        _shape = shape;
        _owner = owner;
        _threads = threads;
        _random = seed | 1;
        _stop = stop;
    }

    /// <summary>Starts the reading and writing threads, named after <paramref name="name"/>.</summary>
    internal void Start(string name)
    {
        _threads.Start(name + "r", Read);
        _threads.Start(name + "w", Write);
    }

    /// <summary>Wakes both threads to end: the connection is closing.</summary>
    internal void Close()
    {
        lock (_gate)
        {
            _closed = true;
            Monitor.PulseAll(_gate);
        }
    }

    private void Read()
    {
        ThreadCpu.RaisePriority();
        long chunks = 0, allocatedAtWarmup = 0, allocatedAtLast = 0;
        try
        {
            ReadChunks(ref chunks, ref allocatedAtWarmup, ref allocatedAtLast);
        }
        catch (ObjectDisposedException)
        {
            // Closed between the check and the receive: the connection is ending.
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Nothing a proxy thread meets may end the process: the connection is reset, as a link that broke.
            _owner.Abort();
        }
        finally
        {
            if (chunks > ProxyThreads.WarmupChunks) _threads.ReportAllocations(allocatedAtLast - allocatedAtWarmup, chunks - ProxyThreads.WarmupChunks);
        }
    }

    private void ReadChunks(ref long chunks, ref long allocatedAtWarmup, ref long allocatedAtLast)
    {
        while (true)
        {
            int slot;
            lock (_gate)
            {
                while (_count == Slots && !_closed) Monitor.Wait(_gate);
                if (_closed) return;
                slot = (_head + _count) % Slots;
            }
            int received = _from.Receive(_buffers[slot], 0, SlotBytes, SocketFlags.None, out var error);
            if (error != SocketError.Success)
            {
                // Reset or closed under us: the peer sees a reset too, at once, as over a real link that broke.
                _owner.Abort();
                return;
            }
            long due = _shape.DueAt(System.Diagnostics.Stopwatch.GetTimestamp(), received, ref _random);
            // Jitter never reorders a stream: TCP delivers in order, so a chunk waits for the one before it.
            if (due < _lastDue) due = _lastDue;
            _lastDue = due;
            _lengths[slot] = received;
            _due[slot] = due;
            lock (_gate)
            {
                _count++;
                Monitor.PulseAll(_gate);
            }
            // 0 bytes: the peer finished sending; the writer passes that on at its due time.
            if (received == 0) return;
            // Read after every chunk, so that what closing the connection allocates is not counted as forwarding's.
            allocatedAtLast = GC.GetAllocatedBytesForCurrentThread();
            if (++chunks == ProxyThreads.WarmupChunks) allocatedAtWarmup = allocatedAtLast;
        }
    }

    private void Write()
    {
        PreciseWait.PrepareThread();
        ThreadCpu.RaisePriority();
        long chunks = 0, allocatedAtWarmup = 0, allocatedAtLast = 0;
        try
        {
            while (true)
            {
                int slot;
                lock (_gate)
                {
                    while (_count == 0 && !_closed) Monitor.Wait(_gate);
                    if (_closed) return;
                    slot = _head;
                }
                PreciseWait.Until(_due[slot], SpinTicks, _stop);
                // A partition holds what is due until it heals: the connection stays open and silent, and nothing is lost.
                // A connection closed meanwhile (the client gave up on it) wakes the writer to end, not to send.
                if (!_owner.Flowing.IsSet)
                {
                    _owner.Flowing.Wait(_stop);
                    lock (_gate)
                    {
                        if (_closed) return;
                    }
                }
                int length = _lengths[slot];
                if (length == 0)
                {
                    _owner.Finished(_to);
                    return;
                }
                for (int sent = 0; sent < length;)
                {
                    int n = _to.Send(_buffers[slot], sent, length - sent, SocketFlags.None, out var error);
                    if (error != SocketError.Success)
                    {
                        _owner.Abort();
                        return;
                    }
                    sent += n;
                }
                _shape.Forwarded(length);
                lock (_gate)
                {
                    _head = (_head + 1) % Slots;
                    _count--;
                    Monitor.PulseAll(_gate);
                }
                allocatedAtLast = GC.GetAllocatedBytesForCurrentThread();
                if (++chunks == ProxyThreads.WarmupChunks) allocatedAtWarmup = allocatedAtLast;
            }
        }
        catch (OperationCanceledException)
        {
            // The proxy is being disposed.
        }
        catch (ObjectDisposedException)
        {
            // The connection was closed between the check and the send: it ends, as a reset one does.
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _owner.Abort();
        }
        finally
        {
            if (chunks > ProxyThreads.WarmupChunks) _threads.ReportAllocations(allocatedAtLast - allocatedAtWarmup, chunks - ProxyThreads.WarmupChunks);
        }
    }
}
