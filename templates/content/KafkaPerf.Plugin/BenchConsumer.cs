using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerfPlugin;

/// <summary>Reads on a thread of its own and hands KafkaPerf every record's key and value, then its partition and offset
/// (how far the read went: what tells a lost record from one not read yet).</summary>
internal sealed class BenchConsumer : IBenchConsumer
{
    private readonly IConsumer<long, byte[]> _consumer;
    private readonly string _topic;
    private readonly CancellationTokenSource _stop = new();
    private IRecordSink? _sink;
    private Thread? _thread;

    public BenchConsumer(ConsumerSpec spec, List<KeyValuePair<string, string>> config)
    {
        _topic = spec.Topic;
        _consumer = new ConsumerBuilder<long, byte[]>(config).SetLogHandler(static (_, _) => { })
            .SetPartitionsAssignedHandler((_, _) => _sink?.OnAssigned())
            .Build();
        EffectiveConfig = KafkaSecurity.Mask(config);
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public bool PrefetchEnabled => false;

    public void StartPolling(IRecordSink sink)
    {
        _sink = sink;
        _consumer.Subscribe(_topic);
        _thread = new Thread(() => Poll(sink)) { IsBackground = true, Name = "kafkaperfplugin-poll" };
        _thread.Start();
    }

    private void Poll(IRecordSink sink)
    {
        while (!_stop.IsCancellationRequested)
        {
            try
            {
                if (_consumer.Consume(TimeSpan.FromMilliseconds(100)) is not { Message: { } message } result) continue;
                sink.OnRecord(message.Key, message.Value);
                sink.OnRecordPosition(result.Partition.Value, result.Offset.Value);
            }
            catch (ConsumeException ex) when (!ex.Error.IsFatal)
            {
                // A transient error (a rebalance, a broker moving): the next poll goes on.
            }
            catch (KafkaException ex)
            {
                sink.OnError(ex.Message);
                return;
            }
        }
    }

    public void StopPolling()
    {
        _stop.Cancel();
        _thread?.Join(TimeSpan.FromSeconds(5));
    }

    public void Dispose()
    {
        StopPolling();
        _consumer.Close();
        _consumer.Dispose();
        _stop.Dispose();
    }
}
