namespace KafkaPerf.Measurement;

/// <summary>Raises a shared value to at least a new one, from any number of threads, without a lock.</summary>
internal static class AtomicMax
{
    /// <summary>Sets <paramref name="slot"/> to <paramref name="value"/> when that is larger.</summary>
    /// <param name="slot">The shared value.</param>
    /// <param name="value">The candidate.</param>
    public static void Raise(ref long slot, long value)
    {
        long current = Volatile.Read(ref slot);
        while (value > current)
        {
            long seen = Interlocked.CompareExchange(ref slot, value, current);
            if (seen == current) return;
            current = seen;
        }
    }
}
