using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent</c>'s consumer: subscribes on a dedicated poll thread; the partition-assigned handler signals
/// <see cref="IRecordSink.OnAssigned"/> before any record, and every record's key and value reach the sink from
/// inside Confluent.Kafka's deserializers - the value as a span over librdkafka's buffer, never copied to an array.
/// </summary>
/// <remarks>Confluent.Kafka has no prefetch thread of the adapter's own; librdkafka always fetches ahead in the background.</remarks>
internal sealed class ConfluentConsumer : ConfluentPollingConsumer<Null>
{
    private readonly RecordForwarder _forwarder;

    public ConfluentConsumer(ConsumerSpec spec, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding)
        : this(spec, bootstrap, security, binding, new RecordForwarder())
    {
    }

    private ConfluentConsumer(ConsumerSpec spec, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, RecordForwarder forwarder)
        : base(spec, binding, ConfluentSettings.Consumer(bootstrap, spec.GroupId, spec.Settings, security: security, instanceId: spec.InstanceId),
            builder => builder.SetKeyDeserializer(forwarder).SetValueDeserializer(forwarder), "kafkaperf-confluent-poll")
    {
        _forwarder = forwarder;
    }

    /// <summary>Records reach the sink from inside the deserializers; the result says only where the record was.</summary>
    protected override void Consume(IConsumer<long, Null> consumer, IRecordSink sink)
    {
        _forwarder.Sink ??= sink;
        var result = consumer.Consume(PollTimeout);
        if (result is not null) sink.OnRecordPosition(result.Partition.Value, result.Offset.Value);
    }

    /// <summary>Deserializes the key (big-endian, as Kafka's <c>LongSerializer</c>), then hands key and value to the
    /// sink; Confluent.Kafka calls the key deserializer first, both on the poll thread.</summary>
    private sealed class RecordForwarder : IDeserializer<long>, IDeserializer<Null>
    {
        private long _key;

        public IRecordSink? Sink { get; set; }

        long IDeserializer<long>.Deserialize(ReadOnlySpan<byte> data, bool isNull, SerializationContext context)
        {
            // A key that is not an id (--keys other than unique) is no error: the id is then read from the value.
            _key = isNull || data.Length != sizeof(long) ? -1 : BinaryPrimitives.ReadInt64BigEndian(data);
            return _key;
        }

        Null IDeserializer<Null>.Deserialize(ReadOnlySpan<byte> data, bool isNull, SerializationContext context)
        {
            Sink!.OnRecord(_key, data);
            return null!;
        }
    }
}
