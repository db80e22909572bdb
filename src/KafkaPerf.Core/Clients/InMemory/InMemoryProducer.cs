using System.Diagnostics;

namespace KafkaPerf.Clients.InMemory;

internal sealed class InMemoryProducer(
    InMemoryTopic topic, IDeliverySink sink, InMemoryClientOptions options, IReadOnlyDictionary<string, string> config)
    : IBenchProducer
{
    private readonly long _delayTicks = (long)(options.SendDelay.TotalSeconds * Stopwatch.Frequency);

    public IReadOnlyDictionary<string, string> EffectiveConfig => config;

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        if (_delayTicks > 0) Delay();
        topic.Append(key, value);
        sink.OnDelivered(key);
    }

    public void Flush(CancellationToken cancellationToken) => cancellationToken.ThrowIfCancellationRequested();

    public void Dispose()
    {
    }

    // A busy-wait, not a sleep: the delay must be small and exact to model a slower client.
    private void Delay()
    {
        long until = Stopwatch.GetTimestamp() + _delayTicks;
        while (Stopwatch.GetTimestamp() < until)
            Thread.SpinWait(8);
    }
}
