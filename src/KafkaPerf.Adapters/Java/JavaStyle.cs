namespace KafkaPerf.Adapters.Java;

/// <summary>How a Java client variant crosses from .NET into the Apache Kafka Java client.</summary>
public enum JavaStyle
{
    /// <summary><c>java</c>: one JNI call per record (<c>send(long, byte[])</c> of a helper that builds the record in
    /// Java), as KNet's <c>KNetProducer</c>; consumed records packed per poll.</summary>
    PerRecord,

    /// <summary><c>java-batched</c>: records packed into native memory, one JNI call per batch, both ways.</summary>
    Batched,

    /// <summary><c>java-records</c>: the bridge style of KNet's plain <c>KafkaProducer</c>/<c>KafkaConsumer</c>: .NET
    /// boxes the key, makes the value array, the <c>ProducerRecord</c> and a callback object, and calls
    /// <c>send(record, callback)</c>, several JNI calls per record; it iterates each poll's <c>ConsumerRecords</c> itself
    /// (<c>hasNext</c>, <c>next</c>, <c>key</c>, <c>value</c>, <c>offset</c>).</summary>
    Records,
}
