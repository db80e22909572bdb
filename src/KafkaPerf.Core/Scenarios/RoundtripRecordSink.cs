using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>The roundtrip scenario's sink: each key is the send timestamp, so now − key is the produce→consume latency.</summary>
internal sealed class RoundtripRecordSink(IClock clock, long expected) : IRecordSink, IDisposable
{
    private readonly TickConverter _ticks = new(clock.Frequency);
    private long _received;
    private long _lastAt;
    private string? _error;

    public LatencyHistogram Latency { get; } = new();

    public ManualResetEventSlim Assigned { get; } = new();

    public ManualResetEventSlim Completed { get; } = new();

    public long Received => Volatile.Read(ref _received);

    public long LastAt => Volatile.Read(ref _lastAt);

    public string? Error => Volatile.Read(ref _error);

    public void OnAssigned() => Assigned.Set();

    public void OnRecord(long key, ReadOnlySpan<byte> value)
    {
        long now = clock.GetTimestamp();
        Latency.RecordValue(_ticks.ToNanoseconds(now - key));
        long received = _received + 1;
        Volatile.Write(ref _received, received);
        if (received == expected)
        {
            Volatile.Write(ref _lastAt, now);
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
