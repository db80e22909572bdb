namespace KafkaPerf.Adapters.Confluent;

/// <summary>How a Confluent.Kafka variant calls the library: the API style its users write.</summary>
public enum ConfluentStyle
{
    /// <summary><c>confluent</c>: the delivery-handler <c>Produce</c> and a consumer that reads spans inside its
    /// deserializers - the fastest correct calls.</summary>
    Fastest,

    /// <summary><c>confluent-sync</c>: <c>await ProduceAsync</c> per record, one in flight (the synchronous send).</summary>
    Awaited,

    /// <summary><c>confluent-async</c>: <c>ProduceAsync</c> with up to a window of tasks in flight, each awaited as it
    /// completes.</summary>
    AsyncWindow,

    /// <summary><c>confluent-records</c>: the usual consumer loop, <c>Consume(timeout)</c> returning a
    /// <c>ConsumeResult</c> per record with the value as a <c>byte[]</c>.</summary>
    RecordConsume,
}
