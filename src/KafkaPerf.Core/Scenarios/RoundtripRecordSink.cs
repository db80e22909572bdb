using HdrHistogram;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>The roundtrip scenario's sink: each key is a record's id, checked exactly once; its first arrival's
/// produce→consume latency is now − that id's send time (<see cref="BurstSendTimes"/>). It stamps the first record and the last.</summary>
internal sealed class RoundtripRecordSink(IClock clock, BurstSendTimes sentAt, KeyVerifier verifier, ReadPositions positions) : SignallingRecordSink
{
    private readonly TickConverter _ticks = new(clock.Frequency);
    private long _received;
    private long _firstAt;
    private long _lastAt;

    public LongHistogram Latency { get; } = Histograms.Create();

    public KeyVerifier Verifier => verifier;

    public ReadPositions Positions => positions;

    public long Received => Volatile.Read(ref _received);

    /// <summary>When the first record arrived (the clock's ticks); 0 before.</summary>
    public long FirstAt => Volatile.Read(ref _firstAt);

    public long LastAt => Volatile.Read(ref _lastAt);

    public override void OnRecord(long key, ReadOnlySpan<byte> value)
    {
        long now = clock.GetTimestamp();
        // Once, on the poll thread: the wait before the first record is reported apart from the rate after it.
        if (_firstAt == 0) Volatile.Write(ref _firstAt, now);
        Volatile.Write(ref _received, _received + 1);
        if (!verifier.Observe(key)) return;
        Latency.RecordClamped(_ticks.ToNanoseconds(now - sentAt.SentAt(key)));
        if (verifier.IsComplete)
        {
            Volatile.Write(ref _lastAt, now);
            Completed.Set();
        }
    }

    public override void OnRecordPosition(int partition, long offset) => positions.Read(partition, offset);
}
