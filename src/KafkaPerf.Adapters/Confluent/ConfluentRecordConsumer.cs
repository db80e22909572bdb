using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent-records</c>'s consumer: the loop .NET code usually writes - <c>Consume(timeout)</c> returns a
/// <c>ConsumeResult</c> per record, the key and value deserialized by Confluent.Kafka's own deserializers (the value a
/// new <c>byte[]</c>), with Confluent.Kafka's default fields (topic, timestamp, headers) marshalled.
/// </summary>
internal sealed class ConfluentRecordConsumer(ConsumerSpec spec, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding)
    : ConfluentPollingConsumer<byte[]>(spec, binding, ConfluentSettings.Consumer(bootstrap, spec.GroupId, spec.Settings, styleDefaults: true, security, spec.InstanceId),
        // Confluent.Kafka's own Int64 deserializer, as application code has it; one that takes any key when keys are not ids.
        spec.Settings.IdInValue ? static builder => builder.SetKeyDeserializer(ConfluentWorkload.AnyKeyDeserializer.Instance) : static builder => builder,
        "kafkaperf-confluent-records-poll")
{
    protected override void Consume(IConsumer<long, byte[]> consumer, IRecordSink sink)
    {
        var result = consumer.Consume(PollTimeout);
        if (result is null) return;
        sink.OnRecord(result.Message.Key, result.Message.Value);
        sink.OnRecordPosition(result.Partition.Value, result.Offset.Value);
    }
}
