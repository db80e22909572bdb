using System.Diagnostics;
using HdrHistogram;
using HdrHistogram.Utilities;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// The time series of a run: on a thread of its own, once per interval, it reads the counters of every producer and
/// consumer and takes the interval histograms of the run's recorders (response time, service time, send delay), keeps
/// each interval's percentiles and compressed histograms, and adds the histograms to the run's totals - so the totals
/// are exactly the sum of the intervals. With the breakdown it also reads the clients' own figures, the collections and
/// the broker's request metrics of the interval (<see cref="IntervalBreakdown"/>).
/// </summary>
/// <remarks>Nothing here runs on a sending or receiving thread. What it allocates - an interval's record, its compressed
/// histograms (a few hundred bytes each, kept) and HdrHistogram's encoder's work buffers (about 1 MB per histogram,
/// garbage at once) - is counted in <see cref="AllocatedBytes"/>, so that a run can leave it out of the client's
/// allocations.</remarks>
internal sealed class IntervalSampler : IDisposable
{
    // The longest the sampler waits for the broker's answer: an in-process read of its metrics takes a millisecond or two;
    // a paused or gone node is left out of the interval rather than delaying the series.
    private static readonly TimeSpan BrokerWait = TimeSpan.FromMilliseconds(250);
    private readonly LoadState _state;
    private IBrokerBreakdownCount? _broker;
    private readonly long _intervalTicks;
    private readonly int _payloadBytes;
    private readonly bool _roundtrip;
    private readonly bool _lag;
    private readonly List<IntervalRecord> _intervals = [];
    private readonly LongHistogram _scratch = Histograms.Create();
    private readonly ByteBuffer _encodeBuffer;
    private long _allocated;
    private long _allocatedAtWarmupEnd;
    private Action? _atWarmupEnd;
    private readonly TickConverter _ticks;
    private readonly BackgroundLoop _loop = new("kafkaperf-intervals");
    private long _origin;
    private long _firstBoundary;
    private long _last;
    private long _sent;
    private long _acknowledged;
    private long _consumed;
    private TimeSpan _gcPause;
    private long? _runtimeGcMillis;

    // lag: whether the consumers read what the run's producers send (a roundtrip): only then is sent − consumed a lag
    // (a consume reads a topic filled before it, and said -N in its last interval).
    public IntervalSampler(LoadState state, TimeSpan interval, int payloadBytes, bool roundtrip, bool lag)
    {
        _state = state;
        _ticks = new TickConverter(state.Clock.Frequency);
        _intervalTicks = Math.Max(1, (long)(interval.TotalSeconds * state.Clock.Frequency));
        _payloadBytes = payloadBytes;
        _roundtrip = roundtrip;
        _lag = lag;
        _encodeBuffer = ByteBuffer.Allocate(_scratch.GetNeededByteBufferCapacity());
    }

    /// <summary>Every timed record's response time, over the whole run.</summary>
    public LongHistogram ResponseTotal { get; } = Histograms.Create();

    /// <summary>Every timed record's service time.</summary>
    public LongHistogram ServiceTotal { get; } = Histograms.Create();

    /// <summary>Every timed record's send delay.</summary>
    public LongHistogram SendDelayTotal { get; } = Histograms.Create();

    /// <summary>Bytes the sampler allocated: the harness's, not the client's.</summary>
    public long AllocatedBytes => Volatile.Read(ref _allocated);

    /// <summary>Bytes the sampler allocated after the warm-up's end was announced (all of them when it was not).</summary>
    public long AllocatedBytesSinceWarmupEnd => Volatile.Read(ref _allocated) - Volatile.Read(ref _allocatedAtWarmupEnd);

    /// <summary>The intervals so far (all of them once <see cref="Stop"/> returned).</summary>
    public IReadOnlyList<IntervalRecord> Intervals => _intervals;

    /// <summary>Starts the series at <paramref name="origin"/>, the clock time the first record is due. A warm-up ending at
    /// <paramref name="warmupEnd"/> is one interval of its own, so that the measured intervals start when it ends; at its
    /// end <paramref name="atWarmupEnd"/>, when given, is called on the sampler's thread (e.g. to read the resources the
    /// measured part starts from). It is not called when the series stops before the warm-up's end.</summary>
    public void Start(long origin, long warmupEnd, Action? atWarmupEnd = null)
    {
        _origin = _last = origin;
        if (_state.Breakdown)
        {
            _gcPause = GC.GetTotalPauseDuration();
            _runtimeGcMillis = BurstBreakdown.ReadRuntimeGcMillis(_state.Runtime);
        }
        _atWarmupEnd = warmupEnd > origin ? atWarmupEnd : null;
        _firstBoundary = warmupEnd > origin ? warmupEnd : origin + _intervalTicks;
        _loop.Start(Loop);
    }

    /// <summary>Ends the series with a last, possibly shorter, interval.</summary>
    public void Stop()
    {
        if (!_loop.Stop()) return;
        long now = _state.Clock.GetTimestamp();
        if (now > _last) Take(now);
    }

    public void Dispose()
    {
        Stop();
        _loop.Dispose();
    }

    private void Loop()
    {
        // The broker's count starts here, on this thread: its answer is awaited, and never by the thread starting the run.
        if (_state.Breakdown && _state.Broker is { } broker)
        {
            _broker = broker.NewCount();
            TakeBroker();
        }
        for (long k = 0; ; k++)
        {
            long boundary = _firstBoundary + (k * _intervalTicks);
            long wait = boundary - _state.Clock.GetTimestamp();
            if (wait > 0 && _loop.WaitForStop(TimeSpan.FromSeconds(_ticks.ToSeconds(wait)))) return;
            if (_loop.StopAsked) return;
            if (k == 0 && _atWarmupEnd is { } announce)
            {
                // First, before the interval's histograms are encoded (milliseconds), so that the reading is at the boundary.
                Volatile.Write(ref _allocatedAtWarmupEnd, Volatile.Read(ref _allocated));
                announce();
            }
            // The interval ends when its counters are read, not at its nominal boundary: a sampler woken late (a busy
            // machine) or still busy with the last interval would otherwise label more, or fewer, seconds' records as one
            // interval's. One that fell behind by whole intervals skips their boundaries: one longer interval, each figure
            // over the time it really covers.
            long now = _state.Clock.GetTimestamp();
            Take(Math.Max(now, _last + 1));
            long behind = (now - _firstBoundary) / _intervalTicks;
            if (behind > k) k = behind;
        }
    }

    private void Take(long end)
    {
        long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        TakeInterval(end);
        Interlocked.Add(ref _allocated, GC.GetAllocatedBytesForCurrentThread() - allocatedBefore);
    }

    private void TakeInterval(long end)
    {
        long sent = Sum(_state.SentCounters), acknowledged = Sum(_state.AcknowledgedCounters), consumed = Sum(_state.ConsumedCounters);
        double length = _ticks.ToSeconds(end - _last);
        var encoded = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        var record = new IntervalRecord
        {
            Index = _intervals.Count,
            StartSeconds = _ticks.ToSeconds(_last - _origin),
            LengthSeconds = length,
            Warmup = _last < _state.WarmupEnd,
            Sent = sent - _sent,
            Acknowledged = acknowledged - _acknowledged,
            Consumed = consumed - _consumed,
            MegabytesPerSecond = length > 0 ? (_roundtrip ? consumed - _consumed : acknowledged - _acknowledged) * (double)_payloadBytes / 1e6 / length : 0,
            InFlight = sent - acknowledged,
            Lag = _lag ? sent - consumed : null,
            ResponseTime = _state.Schedule.IsRate ? Take(_state.Response, ResponseTotal, IntervalRecord.ResponseMetric, encoded) : null,
            ServiceTime = Take(_state.Service, ServiceTotal, IntervalRecord.ServiceMetric, encoded),
            SendDelay = _state.Schedule.IsRate ? Take(_state.SendDelay, SendDelayTotal, IntervalRecord.SendDelayMetric, encoded) : null,
            EncodedHistograms = encoded,
            Breakdown = _state.Breakdown ? TakeBreakdown() : null,
        };
        _intervals.Add(record);
        (_last, _sent, _acknowledged, _consumed) = (end, sent, acknowledged, consumed);
    }

    /// <summary>The producers' own figures (each the mean over the producers that give it) and the collections of .NET
    /// and of the client's runtime since the last interval.</summary>
    private IntervalBreakdown TakeBreakdown()
    {
        IClientBreakdown[] sources;
        lock (_state.BreakdownSources) sources = [.. _state.BreakdownSources];
        var readings = new List<ClientBreakdown>(sources.Length);
        foreach (var source in sources)
        {
            try
            {
                readings.Add(source.ReadBreakdown());
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // A producer being torn down: its figures are missing from this interval, nothing else.
            }
        }
        var pause = GC.GetTotalPauseDuration();
        var runtime = BurstBreakdown.ReadRuntimeGcMillis(_state.Runtime);
        var breakdown = BurstBreakdown.Combine(readings, (pause - _gcPause).TotalMilliseconds, runtime - _runtimeGcMillis, TakeBroker());
        (_gcPause, _runtimeGcMillis) = (pause, runtime);
        return breakdown;
    }

    private BrokerBreakdown? TakeBroker() => BurstBreakdown.TakeBroker(_broker, BrokerWait);

    private IntervalLatency? Take(Recorder recorder, LongHistogram total, string metric, Dictionary<string, byte[]> encoded)
    {
        recorder.GetIntervalHistogramInto(_scratch);
        if (_scratch.TotalCount == 0) return null;
        total.Add(_scratch);
        encoded[metric] = HistogramCodec.Encode(_scratch, _encodeBuffer);
        return new IntervalLatency(
            _scratch.TotalCount,
            _scratch.GetValueAtPercentile(50) / 1_000.0,
            _scratch.GetValueAtPercentile(99) / 1_000.0,
            _scratch.GetValueAtPercentile(99.9) / 1_000.0,
            _scratch.GetMaxValue() / 1_000.0);
    }

    private static long Sum(List<LoadCounter> counters)
    {
        long sum = 0;
        lock (counters)
        {
            foreach (var counter in counters) sum += counter.Value;
        }
        return sum;
    }
}
