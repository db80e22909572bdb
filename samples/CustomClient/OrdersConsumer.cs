using System.Text.Json;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace CustomClient;

/// <summary>Reads orders on a thread of its own, deserializes each from JSON, and gives KafkaPerf its id and payload.</summary>
internal sealed class OrdersConsumer : IBenchConsumer
{
    private readonly IConsumer<string, byte[]> _consumer;
    private readonly string _topic;
    private readonly CancellationTokenSource _stop = new();
    private Thread? _thread;

    public OrdersConsumer(ConsumerSpec spec, List<KeyValuePair<string, string>> config)
    {
        _topic = spec.Topic;
        _consumer = new ConsumerBuilder<string, byte[]>(config).SetLogHandler(static (_, _) => { })
            .SetPartitionsAssignedHandler((_, _) => Sink?.OnAssigned())
            .Build();
        EffectiveConfig = KafkaSecurity.Mask(config);
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public bool PrefetchEnabled => false;

    private IRecordSink? Sink { get; set; }

    public void StartPolling(IRecordSink sink)
    {
        Sink = sink;
        _consumer.Subscribe(_topic);
        _thread = new Thread(() => Poll(sink)) { IsBackground = true, Name = "orders-json-poll" };
        _thread.Start();
    }

    private void Poll(IRecordSink sink)
    {
        while (!_stop.IsCancellationRequested)
        {
            try
            {
                if (_consumer.Consume(TimeSpan.FromMilliseconds(100)) is not { Message: { } message } result) continue;
                var order = JsonSerializer.Deserialize(message.Value, OrderJson.Default.Order)!;
                sink.OnRecord(order.Id, order.Payload);
                // How far the read went: what tells a lost record from one not read yet.
                sink.OnRecordPosition(result.Partition.Value, result.Offset.Value);
            }
            catch (ConsumeException ex) when (!ex.Error.IsFatal)
            {
                // A transient error (a rebalance, a broker moving): the next poll goes on.
            }
            catch (Exception ex) when (ex is KafkaException or JsonException)
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
