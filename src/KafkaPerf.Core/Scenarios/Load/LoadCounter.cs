using System.Runtime.InteropServices;

namespace KafkaPerf.Scenarios.Load;

/// <summary>A count kept by one thread (or a few) and read by the interval sampler: on a cache line of its own, so
/// that counters of different threads do not slow each other down.</summary>
[StructLayout(LayoutKind.Explicit, Size = 128)]
public sealed class LoadCounter
{
    [FieldOffset(64)]
    private long _value;

    /// <summary>The count now.</summary>
    public long Value => Volatile.Read(ref _value);

    /// <summary>Adds one; for a counter with a single writer.</summary>
    public void IncrementSingleWriter() => Volatile.Write(ref _value, _value + 1);

    /// <summary>Adds one; for a counter written by several threads.</summary>
    /// <returns>The count after it.</returns>
    public long Increment() => Interlocked.Increment(ref _value);
}
