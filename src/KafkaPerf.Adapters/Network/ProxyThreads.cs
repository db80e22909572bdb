namespace KafkaPerf.Adapters.Network;

/// <summary>The proxies' threads: each is started named, with a small stack, and counted, so that their CPU time (the
/// living threads' and the ended threads') and what they allocated after warm-up can be read.</summary>
internal sealed class ProxyThreads
{
    /// <summary>Chunks a pipe thread forwards before its allocations count: the first ones set up its monitor and sockets.</summary>
    internal const int WarmupChunks = 64;

    private const int StackBytes = 256 * 1024;
    private readonly Lock _gate = new();
    private readonly List<int> _living = [];
    private long _endedNanoseconds;
    private int _starting;
    private long _allocatedAfterWarmup;
    private long _chunksAfterWarmup;

    /// <summary>Starts <paramref name="body"/> on a named background thread of its own.</summary>
    internal Thread Start(string name, Action body)
    {
        Interlocked.Increment(ref _starting);
        var thread = new Thread(() => Run(body), StackBytes) { IsBackground = true, Name = name };
        thread.Start();
        return thread;
    }

    /// <summary>CPU time of every proxy thread so far, in seconds; <see langword="null"/> where threads' time cannot be read.</summary>
    internal double? CpuSeconds
    {
        get
        {
            if (!OperatingSystem.IsLinux()) return null;
            long total;
            int[] living;
            lock (_gate)
            {
                total = _endedNanoseconds;
                living = [.. _living];
            }
            foreach (var id in living) total += ThreadCpu.Nanoseconds(id) ?? 0;
            return total / 1e9;
        }
    }

    /// <summary>Threads running now.</summary>
    internal int Living
    {
        get
        {
            lock (_gate) return _living.Count + Volatile.Read(ref _starting);
        }
    }

    /// <summary>Waits until every thread has ended, at most <paramref name="timeout"/>.</summary>
    /// <returns>Whether they all did.</returns>
    internal bool WaitEnded(TimeSpan timeout)
    {
        var until = DateTime.UtcNow + timeout;
        while (Living > 0)
        {
            if (DateTime.UtcNow > until) return false;
            Thread.Sleep(5);
        }
        return true;
    }

    /// <summary>Bytes the pipe threads allocated after their first <see cref="WarmupChunks"/> chunks, over the threads that
    /// ended (a thread reports when it ends).</summary>
    internal long AllocatedAfterWarmupBytes => Interlocked.Read(ref _allocatedAfterWarmup);

    /// <summary>Chunks those threads forwarded after their warm-up.</summary>
    internal long ChunksAfterWarmup => Interlocked.Read(ref _chunksAfterWarmup);

    /// <summary>A pipe thread's report as it ends: what it allocated since its warm-up, over how many chunks.</summary>
    internal void ReportAllocations(long bytes, long chunks)
    {
        Interlocked.Add(ref _allocatedAfterWarmup, bytes);
        Interlocked.Add(ref _chunksAfterWarmup, chunks);
    }

    private void Run(Action body)
    {
        int id = ThreadCpu.CurrentThreadId();
        lock (_gate)
        {
            _living.Add(id);
            Interlocked.Decrement(ref _starting);
        }
        try
        {
            body();
        }
        finally
        {
            long ran = ThreadCpu.Nanoseconds(id) ?? 0;
            lock (_gate)
            {
                _living.Remove(id);
                _endedNanoseconds += ran;
            }
        }
    }
}
