using System.Runtime.InteropServices;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent</c>'s producer: the delivery-handler <c>Produce</c> overload (no Task per record), one reused
/// message, key buffer and handler, and on <c>Local: Queue full</c> a poll and a retry instead of a failure.
/// </summary>
/// <remarks>Before the constructor returns, the producer's own handle has fetched the topic's metadata and connected to
/// its leaders, so the first timed send waits for neither. <see cref="Send"/> runs on one thread; delivery reports arrive on Confluent.Kafka's
/// poll thread.</remarks>
internal sealed class ConfluentProducer : ConfluentProducerBase
{
    // Short: Confluent.Kafka's own poll thread serves the reports, so a long wait could outlast the drained queue.
    private static readonly TimeSpan QueueFullWait = TimeSpan.FromMilliseconds(5);

    private readonly TopicPartition _topicPartition;
    private readonly Message<long, byte[]> _message;
    private readonly Action<DeliveryReport<long, byte[]>> _onDelivery;
    private ReadOnlyMemory<byte> _value;

    public ConfluentProducer(ProducerSpec spec, IDeliverySink sink, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, TimeSpan metadataTimeout)
        : base(spec, ConfluentSettings.Producer(bootstrap, spec.Settings, security: security), binding, metadataTimeout, builder => builder
            .SetKeySerializer(new ConfluentWorkload.KeySerializer(RecordKeys.For(spec.Settings)))
            .SetValueSerializer(Serializers.ByteArray))
    {
        _topicPartition = new TopicPartition(spec.Topic, Partition.Any);
        _message = new Message<long, byte[]> { Headers = ConfluentWorkload.HeadersOf(spec.Settings) ?? [] };
        _onDelivery = report =>
        {
            if (report.Error.IsError) sink.OnDeliveryFailed(report.Message.Key, report.Error.Reason);
            else sink.OnDelivered(report.Message.Key, report.Partition.Value, report.Offset.Value);
        };
    }

    public override void Send(long key, ReadOnlyMemory<byte> value)
    {
        if (!value.Equals(_value))
        {
            _value = value;
            _message.Value = WholeArray(value);
        }
        _message.Key = key;
        while (true)
        {
            try
            {
                Producer.Produce(_topicPartition, _message, _onDelivery);
                return;
            }
            catch (ProduceException<long, byte[]> ex) when (ex.Error.Code == ErrorCode.Local_QueueFull)
            {
                // librdkafka's queue is full: wait for delivery reports to drain some, then send again - unless the run
                // was cancelled or stalled (a broker that is gone drains nothing until message.timeout.ms, 5 min).
                Cancellation.ThrowIfCancellationRequested();
                Producer.Poll(QueueFullWait);
            }
        }
    }

    /// <summary>The payload as an array of its exact length; librdkafka copies it on every produce.</summary>
    private static byte[] WholeArray(ReadOnlyMemory<byte> value) =>
        MemoryMarshal.TryGetArray(value, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : value.ToArray();
}
