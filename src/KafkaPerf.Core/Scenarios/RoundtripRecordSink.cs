using HdrHistogram;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>The roundtrip scenario's sink: each key is the send timestamp, so now − key is the produce→consume latency.</summary>
internal sealed class RoundtripRecordSink(IClock clock, long expected) : SignallingRecordSink
{
    private readonly TickConverter _ticks = new(clock.Frequency);
    private long _received;
    private long _lastAt;

    public LongHistogram Latency { get; } = Histograms.Create();

    public long Received => Volatile.Read(ref _received);

    public long LastAt => Volatile.Read(ref _lastAt);

    public override void OnRecord(long key, ReadOnlySpan<byte> value)
    {
        long now = clock.GetTimestamp();
        Latency.RecordClamped(_ticks.ToNanoseconds(now - key));
        long received = _received + 1;
        Volatile.Write(ref _received, received);
        if (received == expected)
        {
            Volatile.Write(ref _lastAt, now);
            Completed.Set();
        }
    }
}
