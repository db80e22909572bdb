using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>The consume scenario's sink: verifies keys 0..N-1 and stamps assignment and completion.</summary>
internal sealed class VerifyingRecordSink(IClock clock, KeyVerifier verifier, ReadOnlyMemory<byte> expectedPayload, bool checkPayload)
    : IRecordSink, IDisposable
{
    private long _received;
    private long _assignedAt;
    private long _completedAt;
    private string? _error;

    public ManualResetEventSlim Assigned { get; } = new();

    public ManualResetEventSlim Completed { get; } = new();

    public KeyVerifier Verifier => verifier;

    public long Received => Volatile.Read(ref _received);

    public long PayloadMismatches { get; private set; }

    public long AssignedAt => Volatile.Read(ref _assignedAt);

    public long CompletedAt => Volatile.Read(ref _completedAt);

    public string? Error => Volatile.Read(ref _error);

    public void OnAssigned()
    {
        // Rebalances may assign again; the timed section starts at the first assignment.
        if (Interlocked.CompareExchange(ref _assignedAt, clock.GetTimestamp(), 0) == 0)
            Assigned.Set();
    }

    public void OnRecord(long key, ReadOnlySpan<byte> value)
    {
        Volatile.Write(ref _received, _received + 1);
        bool first = verifier.Observe(key);
        if (checkPayload && !value.SequenceEqual(expectedPayload.Span))
            PayloadMismatches++;
        if (first && verifier.IsComplete)
        {
            Volatile.Write(ref _completedAt, clock.GetTimestamp());
            Completed.Set();
        }
    }

    public void OnError(string reason)
    {
        Interlocked.CompareExchange(ref _error, reason, null);
        Completed.Set();
    }

    public void Dispose()
    {
        Assigned.Dispose();
        Completed.Dispose();
    }
}
