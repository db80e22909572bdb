using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>The consume scenario's sink: verifies keys 0..N-1, notes how far the read went per partition, and stamps
/// assignment, the first record and completion.</summary>
internal sealed class VerifyingRecordSink(IClock clock, KeyVerifier verifier, ReadPositions positions, ReadOnlyMemory<byte> expectedPayload, bool checkPayload, int prefix = 0)
    : SignallingRecordSink
{
    private long _received;
    private long _assignedAt;
    private long _firstAt;
    private long _completedAt;

    public KeyVerifier Verifier => verifier;

    public ReadPositions Positions => positions;

    public long Received => Volatile.Read(ref _received);

    public long PayloadMismatches { get; private set; }

    public long AssignedAt => Volatile.Read(ref _assignedAt);

    /// <summary>When the first record arrived (the clock's ticks); 0 before.</summary>
    public long FirstAt => Volatile.Read(ref _firstAt);

    public long CompletedAt => Volatile.Read(ref _completedAt);

    public override void OnAssigned()
    {
        // Rebalances may assign again; the timed section starts at the first assignment.
        if (Interlocked.CompareExchange(ref _assignedAt, clock.GetTimestamp(), 0) == 0)
            Assigned.Set();
    }

    public override void OnRecord(long key, ReadOnlySpan<byte> value)
    {
        // Stamped once, on the poll thread: the start-up before the first record (librdkafka's first fetch of a new group
        // waits about 100 ms) is reported apart from the rate after it. Every later record pays one compare.
        if (_firstAt == 0) Volatile.Write(ref _firstAt, clock.GetTimestamp());
        Volatile.Write(ref _received, _received + 1);
        bool first = verifier.Observe(key);
        if (checkPayload && (value.Length < prefix || !value[prefix..].SequenceEqual(expectedPayload.Span[prefix..])))
            PayloadMismatches++;
        if (first && verifier.IsComplete)
        {
            Volatile.Write(ref _completedAt, clock.GetTimestamp());
            Completed.Set();
        }
    }

    public override void OnRecordPosition(int partition, long offset) => positions.Read(partition, offset);
}
