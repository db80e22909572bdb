using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerfPlugin;

/// <summary>Sends each record with KafkaPerf's key unchanged (a record's number, or in a roundtrip a timestamp) and
/// reports its delivery by that key, with the partition and offset the broker gave it.</summary>
internal sealed class BenchProducer : IBenchProducer
{
    private readonly IProducer<long, byte[]> _producer;
    private readonly string _topic;
    private readonly Action<DeliveryReport<long, byte[]>> _onDelivery;
    private readonly CancellationToken _cancellation;

    public BenchProducer(ProducerSpec spec, IDeliverySink sink, List<KeyValuePair<string, string>> config)
    {
        _topic = spec.Topic;
        _cancellation = spec.Cancellation;
        // One handler for every record, made once: no closure per send.
        _onDelivery = report =>
        {
            if (report.Error.IsError) sink.OnDeliveryFailed(report.Message.Key, report.Error.Reason);
            // The offset lets KafkaPerf prove a record lost rather than leave it "not verified".
            else sink.OnDelivered(report.Message.Key, report.Partition.Value, report.Offset.Value);
        };
        _producer = new ProducerBuilder<long, byte[]>(config).SetLogHandler(static (_, _) => { }).Build();
        EffectiveConfig = KafkaSecurity.Mask(config);
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        // What an application does: a Message with the key and a byte[] value. Replace this with your own style
        // (your serializer, your key type), keeping KafkaPerf's key recoverable in the delivery report and the consumer.
        var message = new Message<long, byte[]> { Key = key, Value = value.ToArray() };
        while (true)
        {
            try
            {
                _producer.Produce(_topic, message, _onDelivery);
                return;
            }
            catch (ProduceException<long, byte[]> ex) when (ex.Error.Code == ErrorCode.Local_QueueFull)
            {
                // A full queue waits for deliveries, but never past the run's end: a broker that died ends the run.
                _cancellation.ThrowIfCancellationRequested();
                _producer.Poll(TimeSpan.FromMilliseconds(5));
            }
        }
    }

    public void Flush(CancellationToken cancellationToken)
    {
        while (_producer.Flush(TimeSpan.FromMilliseconds(1)) > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            _cancellation.ThrowIfCancellationRequested();
        }
    }

    public void Dispose() => _producer.Dispose();
}
