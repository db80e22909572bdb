using System.Numerics;
using System.Runtime.CompilerServices;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// When each record of a run is due, and which records are timed. Records are numbered 0..N-1 (their keys); with N
/// producers, producer p sends records p, p + N, p + 2N, … so that together they follow one uniform schedule and every
/// key is sent once. A burst has no schedule: each record is "due" when it is sent.
/// </summary>
/// <remarks>
/// <para>A producer that falls behind does not skip records or stretch the schedule: it sends the late ones as fast
/// as the client takes them until it is back on time. The delay shows in the send delay (actual − intended) and in
/// the response time, which is measured from when the record was due.</para>
/// <para>Timing a record costs a few clock reads and histogram updates (about 60 ns). Every record is timed at up to
/// <see cref="TimedPerSecondLimit"/> records per second (under 1 % of a core); above, every k-th record, k a power of
/// two, so that at most that many are timed per second. A burst times every record up to 131 072, then every k-th
/// (<see cref="Measurement.LatencySampling"/>).</para>
/// </remarks>
public sealed class SendSchedule
{
    /// <summary>The most records timed per second of a rate: 131 072, about 8 ms of CPU per second.</summary>
    public const double TimedPerSecondLimit = 131_072;

    private readonly double _ticksPerRecord;
    private readonly long _sampleMask;

    /// <summary>Creates a schedule.</summary>
    /// <param name="load">The rate, warm-up and duration; <see langword="null"/> for a burst of <paramref name="burstRecords"/>.</param>
    /// <param name="clockFrequency">Ticks per second of the clock.</param>
    /// <param name="burstRecords">Records of a burst (ignored with a rate).</param>
    public SendSchedule(RateLoad? load, long clockFrequency, long burstRecords = 0)
    {
        Load = load;
        if (load is not null)
        {
            _ticksPerRecord = clockFrequency / load.RecordsPerSecond;
            WarmupRecords = load.WarmupRecords;
            TotalRecords = load.TotalRecords;
            SampleStride = load.RecordsPerSecond <= TimedPerSecondLimit ? 1 : (int)BitOperations.RoundUpToPowerOf2((ulong)Math.Ceiling(load.RecordsPerSecond / TimedPerSecondLimit));
        }
        else
        {
            TotalRecords = burstRecords;
            SampleStride = Measurement.LatencySampling.StrideFor(burstRecords);
        }
        _sampleMask = SampleStride - 1;
        SampleShift = BitOperations.Log2((uint)SampleStride);
    }

    /// <summary>The rate, or <see langword="null"/> for a burst.</summary>
    public RateLoad? Load { get; }

    /// <summary>Whether records follow a rate.</summary>
    public bool IsRate => Load is not null;

    /// <summary>The clock timestamp at which record 0 is due; set once every producer is ready.</summary>
    public long Start { get; set; }

    /// <summary>Records before this one are the warm-up.</summary>
    public long WarmupRecords { get; }

    /// <summary>Every record of the run.</summary>
    public long TotalRecords { get; }

    /// <summary>Records of the measured part.</summary>
    public long MeasuredRecords => TotalRecords - WarmupRecords;

    /// <summary>Every how many records one is timed (a power of two; 1 = all).</summary>
    public int SampleStride { get; }

    /// <summary>log2 of <see cref="SampleStride"/>.</summary>
    public int SampleShift { get; }

    /// <summary>When a record is due (only with a rate).</summary>
    /// <param name="record">Its number.</param>
    /// <returns>A clock timestamp.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long DueAt(long record) => Start + (long)(record * _ticksPerRecord);

    /// <summary>Whether a record is timed: one of the measured records, and one of every <see cref="SampleStride"/>.</summary>
    /// <param name="record">Its number.</param>
    /// <returns><see langword="true"/> when its latencies are recorded.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsTimed(long record) => record >= WarmupRecords && (record & _sampleMask) == 0;
}
