using System.Globalization;
using System.Text.Json;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace CustomClient;

/// <summary>Each record becomes an order, serialized to JSON, sent with the order id as its key; the delivery report
/// gives KafkaPerf the record's number back (the order id).</summary>
internal sealed class OrdersProducer : IBenchProducer
{
    private static readonly DateTimeOffset Epoch = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private readonly IProducer<string, byte[]> _producer;
    private readonly string _topic;
    private readonly Action<DeliveryReport<string, byte[]>> _onDelivery;
    private readonly CancellationToken _cancellation;

    public OrdersProducer(ProducerSpec spec, IDeliverySink sink, List<KeyValuePair<string, string>> config)
    {
        _topic = spec.Topic;
        _cancellation = spec.Cancellation;
        _onDelivery = report =>
        {
            long key = long.Parse(report.Message.Key, CultureInfo.InvariantCulture);
            if (report.Error.IsError) sink.OnDeliveryFailed(key, report.Error.Reason);
            // The offset lets KafkaPerf prove a record lost rather than leave it "not verified".
            else sink.OnDelivered(key, report.Partition.Value, report.Offset.Value);
        };
        _producer = new ProducerBuilder<string, byte[]>(config).SetLogHandler(static (_, _) => { }).Build();
        EffectiveConfig = KafkaSecurity.Mask(config);
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        // What an application does for every order: build it, serialize it, send it with its id as the key. The id is
        // KafkaPerf's key, kept as it is: a record number, or in a roundtrip a timestamp (any long).
        var order = new Order
        {
            Id = key, Customer = $"customer-{key % 1000}", Amount = (key % 10_000) / 100m, PlacedAt = Epoch.AddTicks(key % TimeSpan.TicksPerDay),
            Payload = value.ToArray(),
        };
        var message = new Message<string, byte[]> { Key = key.ToString(CultureInfo.InvariantCulture), Value = JsonSerializer.SerializeToUtf8Bytes(order, OrderJson.Default.Order) };
        while (true)
        {
            try
            {
                _producer.Produce(_topic, message, _onDelivery);
                return;
            }
            catch (ProduceException<string, byte[]> ex) when (ex.Error.Code == ErrorCode.Local_QueueFull)
            {
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
