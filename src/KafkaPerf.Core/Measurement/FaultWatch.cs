using System.Collections.Concurrent;

namespace KafkaPerf.Measurement;

/// <summary>
/// What a run with faults records beside its usual figures, allocation-free per record: per millisecond, the highest key
/// acknowledged and the highest key that arrived (so that the first acknowledgement of a record due after any moment can
/// be found afterwards: keys are due in order, key k at k / rate seconds from the origin), the keys acknowledged and at
/// which offsets (to prove what was lost, <see cref="Acknowledged"/>, which the run's delivery sinks fill), and failed
/// records by error. Made before the run; the scenario tells it when its schedule starts.
/// </summary>
public sealed class FaultWatch
{
    /// <summary>One bucket per millisecond.</summary>
    private const long TicksPerSecondScale = 1000;

    private readonly long[] _acks;
    private readonly long[] _arrivals;
    private readonly ConcurrentDictionary<string, long> _failures = new(StringComparer.Ordinal);
    private readonly TaskCompletionSource<(long Origin, long MeasuredStart)> _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly double _rate;
    private long _origin;
    private long _ticksPerBucket = 1;

    /// <param name="records">Records of the run (keys 0..N-1).</param>
    /// <param name="partitions">The topic's partitions.</param>
    /// <param name="length">How long the run may last, drain included: later events count in the last millisecond.</param>
    /// <param name="clock">The run's clock.</param>
    /// <param name="rate">The offered rate, records per second.</param>
    public FaultWatch(long records, int partitions, TimeSpan length, IClock clock, double rate)
    {
        ArgumentNullException.ThrowIfNull(clock);
        Clock = clock;
        _rate = rate;
        int buckets = (int)Math.Clamp(length.TotalMilliseconds, 1, 30 * 60 * 1000);
        _acks = new long[buckets];
        _arrivals = new long[buckets];
        Array.Fill(_acks, -1);
        Array.Fill(_arrivals, -1);
        Acknowledged = new AcknowledgedOffsets(partitions, records);
    }

    /// <summary>The run's clock.</summary>
    public IClock Clock { get; }

    /// <summary>Every key acknowledged, once, and the offsets at which the partitions' acknowledgements end: the run's
    /// delivery sinks fill it, the read-back after the run proves against it.</summary>
    public AcknowledgedOffsets Acknowledged { get; }

    /// <summary>Completes with the clock times of the run's origin (its first record due) and of the start of its
    /// measured part, once the scenario has set its schedule.</summary>
    public Task<(long Origin, long MeasuredStart)> Started => _started.Task;

    /// <summary>Failed records by error (the error's text up to its first colon, or whole).</summary>
    public IReadOnlyDictionary<string, long> Failures => _failures;

    /// <summary>Called by the scenario once its schedule is set, before the first record is due.</summary>
    /// <param name="origin">When the first record is due.</param>
    /// <param name="measuredStart">When the measured part starts (after the warm-up).</param>
    public void OnStarted(long origin, long measuredStart)
    {
        _origin = origin;
        _ticksPerBucket = Math.Max(1, Clock.Frequency / TicksPerSecondScale);
        _started.TrySetResult((origin, measuredStart));
    }

    /// <summary>An acknowledgement now (the clock time <paramref name="now"/>), for the times around the faults; the
    /// key and its offset go to <see cref="Acknowledged"/> separately.</summary>
    public void OnAcknowledged(long key, long now) => AtomicMax.Raise(ref _acks[Bucket(now)], key);

    /// <summary>A record consumed for the first time now.</summary>
    public void OnArrived(long key, long now) => AtomicMax.Raise(ref _arrivals[Bucket(now)], key);

    /// <summary>A record the client gave up on.</summary>
    public void OnFailed(string reason)
    {
        int colon = reason.IndexOf(':', StringComparison.Ordinal);
        var kind = (colon > 0 ? reason[..colon] : reason).Trim();
        if (kind.Length > 120) kind = kind[..120];
        _failures.AddOrUpdate(kind, 1, static (_, n) => n + 1);
    }

    /// <summary>Seconds from the origin to the first acknowledgement of a record due at or after
    /// <paramref name="seconds"/> (from the origin); <see langword="null"/> when there was none. (An acknowledgement the
    /// client reports just after a fault may be of a record the broker answered before it.)</summary>
    /// <param name="seconds">The moment.</param>
    /// <param name="anyRecord">Any record's acknowledgement, whenever it was due (after an election, which comes after
    /// whatever the failed leader had answered).</param>
    public double? FirstAcknowledgementAfter(double seconds, bool anyRecord = false) => FirstAfter(_acks, seconds, anyRecord);

    /// <summary>Seconds from the origin to the first arrival of a record due at or after <paramref name="seconds"/>.</summary>
    public double? FirstArrivalAfter(double seconds) => FirstAfter(_arrivals, seconds, anyRecord: false);

    /// <summary>Seconds from the origin of the clock time <paramref name="ticks"/>.</summary>
    public double SecondsOf(long ticks) => (double)(ticks - _origin) / Clock.Frequency;

    private int Bucket(long now)
    {
        long bucket = (now - _origin) / _ticksPerBucket;
        return (int)Math.Clamp(bucket, 0, _acks.Length - 1);
    }

    private double? FirstAfter(long[] buckets, double seconds, bool anyRecord)
    {
        long firstKey = anyRecord ? 0 : (long)Math.Ceiling(seconds * _rate);
        // Any record: the moment's own millisecond may hold what came just before it, so the search starts at the next.
        int from = (int)Math.Clamp(Math.Floor(seconds * 1000) + (anyRecord ? 1 : 0), 0, buckets.Length);
        for (int i = from; i < buckets.Length; i++)
        {
            // The last millisecond also holds everything later (a run that went on past the watch's length, on a slow
            // machine): found there, the moment is not known, and no figure is better than one too small.
            if (Volatile.Read(ref buckets[i]) >= firstKey) return i == buckets.Length - 1 ? null : Math.Max(seconds, i / 1000.0);
        }
        return null;
    }
}
