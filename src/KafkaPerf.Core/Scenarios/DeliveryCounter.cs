using HdrHistogram;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>Counts delivery reports and, when send timestamps are kept, records send→ack latency.</summary>
internal sealed class DeliveryCounter : IDeliverySink
{
    private readonly IClock _clock;
    private readonly TickConverter _ticks;
    private long _delivered;
    private long _failed;
    private string? _firstError;
    private readonly Lock _latencyGate = new();
    private readonly long _sampleMask;
    // Send timestamps of the timed keys: slot key / SampleStride for every key divisible by it.
    private readonly long[]? _sendTimestamps;
    private readonly int _sampleShift;

    private readonly AcknowledgedOffsets? _acknowledged;

    /// <param name="clock">The clock.</param>
    /// <param name="messageCount">Records sent, with ids 0..messageCount-1.</param>
    /// <param name="trackLatency">Whether send→ack latency is recorded.</param>
    /// <param name="acknowledged">Notes where each record was acknowledged, for a later read's proofs; none when nothing
    /// reads the records back.</param>
    public DeliveryCounter(IClock clock, long messageCount, bool trackLatency, AcknowledgedOffsets? acknowledged = null)
    {
        _clock = clock;
        _acknowledged = acknowledged;
        _ticks = new TickConverter(clock.Frequency);
        if (trackLatency)
        {
            // One slot per timed key (keys are ordinals): allocated before timing, read on the delivery thread.
            SampleStride = LatencySampling.StrideFor(messageCount);
            _sampleMask = SampleStride - 1;
            _sampleShift = System.Numerics.BitOperations.Log2((uint)SampleStride);
            _sendTimestamps = new long[(messageCount + SampleStride - 1) / SampleStride];
            Latency = Histograms.Create();
        }
    }


    /// <summary>Whether send→ack latency is recorded.</summary>
    public bool TracksLatency => _sendTimestamps is not null;

    /// <summary>Notes a key's send time when it is one of the timed keys. Call just before sending it.</summary>
    /// <param name="key">The ordinal key about to be sent.</param>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public void OnSending(long key)
    {
        if ((key & _sampleMask) == 0) _sendTimestamps![key >> _sampleShift] = _clock.GetTimestamp();
    }

    /// <summary>Every how many keys one is timed (a power of two; 1 = all).</summary>
    public int SampleStride { get; } = 1;

    public LongHistogram? Latency { get; }

    public long Delivered => Volatile.Read(ref _delivered);

    public long Failed => Volatile.Read(ref _failed);

    public string? FirstError => Volatile.Read(ref _firstError);

    public void OnDelivered(long key)
    {
        _acknowledged?.AddWithoutOffset(key);
        Count(key);
    }

    public void OnDelivered(long key, int partition, long offset)
    {
        _acknowledged?.Add(key, partition, offset);
        Count(key);
    }

    private void Count(long key)
    {
        if (_sendTimestamps is { } sent && (key & _sampleMask) == 0 && (ulong)(key >> _sampleShift) < (ulong)sent.Length)
        {
            long latency = _ticks.ToNanoseconds(_clock.GetTimestamp() - sent[key >> _sampleShift]);
            // Reports may come from two threads at once (librdkafka serves them on its poll thread and inside a flush),
            // and the histogram is single-writer; uncontended, the lock costs a few nanoseconds.
            lock (_latencyGate) Latency!.RecordClamped(latency);
        }
        Interlocked.Increment(ref _delivered);
    }

    public void OnDeliveryFailed(long key, string reason)
    {
        Interlocked.CompareExchange(ref _firstError, reason, null);
        Interlocked.Increment(ref _failed);
    }

    /// <summary>The failure text for a run in which not every record was acknowledged, else <see langword="null"/>.</summary>
    public string? DescribeShortfall(long expected, string what)
    {
        long delivered = Delivered;
        if (delivered >= expected) return null;
        long failed = Failed;
        return failed > 0
            ? $"{what}: {delivered} of {expected} records acknowledged, {failed} failed (first error: {FirstError})."
            : $"{what}: {delivered} of {expected} records acknowledged after the flush.";
    }
}
