using System.Numerics;

namespace KafkaPerf.Measurement;

/// <summary>
/// Which produced records get a send→ack latency: every record up to <see cref="AlwaysAllUpTo"/> records, beyond
/// that every k-th key, k a power of two chosen so that 65 536 to 131 072 records are timed.
/// </summary>
/// <remarks>Timing a record costs two clock reads (~26 ns each here) and a histogram update on the client's delivery
/// thread; at a million records per second on two cores that was 9-16 % of a produce run's time (measured with the
/// confluent client: docs/BENCHMARKS.md). Keys are ordinals, so every k-th key samples the whole run evenly, and
/// 65 536 samples still place the 99.9th percentile among 65 records.</remarks>
public static class LatencySampling
{
    /// <summary>The fewest samples a sampled run keeps.</summary>
    public const int MinimumSamples = 65_536;

    /// <summary>Runs of up to this many records time every record.</summary>
    public const long AlwaysAllUpTo = 2L * MinimumSamples;

    /// <summary>The sampling stride for a run.</summary>
    /// <param name="messageCount">Records in the run.</param>
    /// <returns>1 (every record) or a power of two.</returns>
    public static int StrideFor(long messageCount) =>
        messageCount <= AlwaysAllUpTo ? 1 : 1 << BitOperations.Log2((ulong)(messageCount / MinimumSamples));
}
