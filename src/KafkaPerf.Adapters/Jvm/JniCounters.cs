using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace KafkaPerf.Adapters.Jvm;

/// <summary>
/// Counts crossings between .NET and the JVM in this process: calls from .NET into Java methods (and constructors),
/// and calls from Java into .NET through <c>native</c> methods. Data copies (<c>SetByteArrayRegion</c>) and reference
/// bookkeeping are not crossings into code and are not counted.
/// </summary>
/// <remarks>Two counters on separate cache lines, incremented with one atomic add each: the sending thread and
/// Kafka's callback threads do not share a line.</remarks>
public static class JniCounters
{
    private static Counters s_counters;

    /// <summary>Calls from .NET into Java so far.</summary>
    public static long Calls => Volatile.Read(ref s_counters.Calls) - Volatile.Read(ref s_counters.Discounted);

    /// <summary>Calls from Java into .NET so far.</summary>
    public static long Callbacks => Volatile.Read(ref s_counters.Callbacks);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static void CountCall() => Interlocked.Increment(ref s_counters.Calls);

    /// <summary>Takes back calls KafkaPerf's own probes made (a runtime or statistics reading on the sampler's thread, in
    /// the middle of a timed section): they are the harness's, not the client's.</summary>
    internal static void Discount(long calls) => Interlocked.Add(ref s_counters.Discounted, calls);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static void CountCallback() => Interlocked.Increment(ref s_counters.Callbacks);

    [StructLayout(LayoutKind.Explicit, Size = 192)]
    private struct Counters
    {
        [FieldOffset(64)] public long Calls;
        [FieldOffset(128)] public long Callbacks;
        [FieldOffset(176)] public long Discounted;
    }
}
