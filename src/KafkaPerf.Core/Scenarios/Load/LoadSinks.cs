using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// One producer's delivery reports in a load run: counts every acknowledgement and, for timed records, records the
/// response time (from when the record was due) and the service time (from when it was sent) into the run's recorders.
/// </summary>
/// <remarks>Thread-safe and allocation-free: the recorders are wait-free for any number of writers, and the counter is
/// atomic (librdkafka may serve reports on two threads at once).</remarks>
internal sealed class LoadDeliverySink : IDeliverySink
{
    private readonly LoadState _state;
    private readonly bool _recordLatency;
    private readonly long _expected;
    private readonly LoadCounter _acknowledged;
    private long _failed;
    private long _completedAt;
    private string? _firstError;

    /// <param name="state">The run.</param>
    /// <param name="recordLatency">Whether acknowledgements time records (produce runs of a client that reports them
    /// per record); roundtrip runs time arrivals instead.</param>
    /// <param name="expected">Records this producer sends.</param>
    public LoadDeliverySink(LoadState state, bool recordLatency, long expected)
    {
        _state = state;
        _recordLatency = recordLatency;
        _expected = expected;
        _acknowledged = LoadState.Add(state.AcknowledgedCounters);
    }

    public long Acknowledged => _acknowledged.Value;

    public long Failed => Volatile.Read(ref _failed);

    public string? FirstError => Volatile.Read(ref _firstError);

    /// <summary>When this producer's last record was acknowledged; 0 until then.</summary>
    public long CompletedAt => Volatile.Read(ref _completedAt);

    public void OnDelivered(long key)
    {
        _state.Acknowledged?.AddWithoutOffset(key);
        Acknowledge(key);
    }

    public void OnDelivered(long key, int partition, long offset)
    {
        _state.Acknowledged?.Add(key, partition, offset);
        Acknowledge(key);
    }

    private void Acknowledge(long key)
    {
        if (_state.Faults is { } faults) faults.OnAcknowledged(key, _state.Clock.GetTimestamp());
        if (_recordLatency && _state.Schedule.IsTimed(key))
        {
            long now = _state.Clock.GetTimestamp();
            if (_state.Schedule.IsRate) _state.Response.RecordClamped(_state.Ticks.ToNanoseconds(now - _state.Schedule.DueAt(key)));
            if (_state.Ring.TryGet(key, out long sent)) _state.Service.RecordClamped(_state.Ticks.ToNanoseconds(now - sent));
        }
        if (_acknowledged.Increment() == _expected) Volatile.Write(ref _completedAt, _state.Clock.GetTimestamp());
    }

    public void OnDeliveryFailed(long key, string reason)
    {
        Interlocked.CompareExchange(ref _firstError, reason, null);
        Interlocked.Increment(ref _failed);
        _state.Faults?.OnFailed(reason);
    }
}

/// <summary>
/// One consumer's records in a load run: every key is checked exactly once across the group, how far the group read
/// each partition is noted, and timed records get their produce→consume response and service times.
/// </summary>
internal sealed class LoadRecordSink : IRecordSink
{
    private readonly LoadState _state;
    private readonly ConcurrentKeyVerifier _verifier;
    private readonly ReadPositions _positions;
    private readonly bool _recordLatency;
    private readonly LoadCounter _consumed;
    private readonly Action<long> _completed;
    private readonly GroupWatch? _group;
    private long _assignedAt;
    private long _busyUntil;
    private CancellationToken _busyOver;
    private string? _error;

    /// <param name="state">The run.</param>
    /// <param name="verifier">The group's exactly-once check.</param>
    /// <param name="positions">How far the group read each partition.</param>
    /// <param name="recordLatency">Whether arrivals time records (roundtrip runs).</param>
    /// <param name="completed">Called with the clock once the last expected key arrived.</param>
    /// <param name="member">The member's number in the group, from 1.</param>
    /// <param name="group">What the group lives through, in a run with membership events; none otherwise.</param>
    public LoadRecordSink(LoadState state, ConcurrentKeyVerifier verifier, ReadPositions positions, bool recordLatency, Action<long> completed,
        int member = 1, GroupWatch? group = null)
    {
        Member = member;
        _group = group;
        _state = state;
        _verifier = verifier;
        _positions = positions;
        _recordLatency = recordLatency;
        _completed = completed;
        _consumed = LoadState.Add(state.ConsumedCounters);
    }

    /// <summary>The member's number in the group, from 1.</summary>
    public int Member { get; }

    /// <summary>When partitions were first assigned to this consumer; 0 until then.</summary>
    public long AssignedAt => Volatile.Read(ref _assignedAt);

    public long Consumed => _consumed.Value;

    public string? Error => Volatile.Read(ref _error);

    public void OnAssigned() => Interlocked.CompareExchange(ref _assignedAt, _state.Clock.GetTimestamp(), 0);

    public void OnRecord(long key, ReadOnlySpan<byte> value)
    {
        _consumed.IncrementSingleWriter();
        bool first = _verifier.Observe(key, out long distinct);
        if (!first) _group?.OnRedelivered();
        if (first && _state.Faults is { } faults) faults.OnArrived(key, _state.Clock.GetTimestamp());
        if (_recordLatency && first && _state.Schedule.IsTimed(key))
        {
            long now = _state.Clock.GetTimestamp();
            if (_state.Schedule.IsRate) _state.Response.RecordClamped(_state.Ticks.ToNanoseconds(now - _state.Schedule.DueAt(key)));
            if (_state.Ring.TryGet(key, out long sent)) _state.Service.RecordClamped(_state.Ticks.ToNanoseconds(now - sent));
        }
        if (first && distinct == _verifier.ExpectedCount) _completed(_state.Clock.GetTimestamp());
    }

    public void OnRecordPosition(int partition, long offset)
    {
        _positions.Read(partition, offset);
        _group?.OnArrival(partition, _state.Clock.GetTimestamp());
        if (Volatile.Read(ref _busyUntil) != 0) BeBusy();
    }

    /// <summary>Makes the member busy until <paramref name="until"/>: once its current record is handled, its poll thread
    /// (the application's, in the clients' terms) waits, so its client is not polled meanwhile.</summary>
    /// <param name="until">The clock at which the member is free again.</param>
    /// <param name="over">Ends the wait early (the run's events are over).</param>
    public void BusyUntil(long until, CancellationToken over)
    {
        _busyOver = over;
        Volatile.Write(ref _busyUntil, until);
    }

    private void BeBusy()
    {
        long until = Interlocked.Exchange(ref _busyUntil, 0);
        long left = until - _state.Clock.GetTimestamp();
        if (left > 0) _busyOver.WaitHandle.WaitOne(TimeSpan.FromSeconds((double)left / _state.Clock.Frequency));
    }

    public void OnPartitionsAssigned(IReadOnlyList<int> partitions) => _group?.Log(Member, GroupWatch.EntryKind.Assigned, partitions);

    public void OnPartitionsRevoked(IReadOnlyList<int> partitions, bool lost) =>
        _group?.Log(Member, lost ? GroupWatch.EntryKind.Lost : GroupWatch.EntryKind.Revoked, partitions);

    public void OnError(string reason) => Interlocked.CompareExchange(ref _error, reason, null);
}
