using System.Diagnostics;

namespace KafkaPerf.Clients.InMemory;

internal sealed class InMemoryProducer : IBenchProducer
{
    private readonly PartitionedTopic _topic;
    private readonly IDeliverySink _sink;
    private readonly InMemoryClientOptions _options;
    private readonly long _delayTicks;
    private bool _paused;

    public InMemoryProducer(PartitionedTopic topic, IDeliverySink sink, InMemoryClientOptions options, IReadOnlyDictionary<string, string> config)
    {
        _topic = topic;
        _sink = sink;
        _options = options;
        _delayTicks = (long)(options.SendDelay.TotalSeconds * Stopwatch.Frequency);
        EffectiveConfig = config;
        topic.AddProducer();
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        if (_delayTicks > 0) Delay();
        if (key == _options.PauseAtRecord && !_paused)
        {
            // A client-side stall (a GC pause, a blocked send): this send, and the caller, wait.
            _paused = true;
            Thread.Sleep(_options.PauseDuration);
        }
        var (partition, offset) = _topic.Append(key, value);
        _sink.OnDelivered(key, partition, offset);
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
