using KafkaPerf.Adapters.Jvm;

namespace KafkaPerf.Adapters.Java;

/// <summary>Method IDs of the per-record path of <c>java-records</c>: the producer's <c>send(ProducerRecord, Callback)</c>
/// with a boxed key, a new value array and a callback object per record, and the consumer's records iterated from
/// .NET (<c>iterator</c>, <c>hasNext</c>, <c>next</c>, <c>key</c>, <c>value</c>, <c>partition</c>, <c>offset</c>).</summary>
internal sealed class BridgeMethods
{
    public BridgeMethods(JniEnv env)
    {
        LongClass = env.FindClassGlobal("java/lang/Long");
        LongValueOf = env.GetStaticMethodId(LongClass, "valueOf", "(J)Ljava/lang/Long;");
        RecordClass = env.FindClassGlobal("org/apache/kafka/clients/producer/ProducerRecord");
        RecordInit = env.GetMethodId(RecordClass, "<init>", "(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;)V");
        RecordInitWithHeaders = env.GetMethodId(RecordClass, "<init>", "(Ljava/lang/String;Ljava/lang/Integer;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Iterable;)V");
        CallbackClass = env.FindClassGlobal("kafkaperf/client/RecordCallback");
        CallbackInit = env.GetMethodId(CallbackClass, "<init>", "(Lkafkaperf/client/BenchProducer;J)V");
        var producer = env.FindClassGlobal("org/apache/kafka/clients/producer/KafkaProducer");
        Send = env.GetMethodId(producer, "send", "(Lorg/apache/kafka/clients/producer/ProducerRecord;Lorg/apache/kafka/clients/producer/Callback;)Ljava/util/concurrent/Future;");
        env.DeleteGlobalRef(producer);
        var bench = env.FindClassGlobal("kafkaperf/client/BenchProducer");
        KafkaProducerOf = env.GetMethodId(bench, "kafkaProducer", "()Lorg/apache/kafka/clients/producer/KafkaProducer;");
        HeadersOf = env.GetMethodId(bench, "headers", "()Lorg/apache/kafka/common/header/Headers;");
        env.DeleteGlobalRef(bench);
        var consumer = env.FindClassGlobal("kafkaperf/client/BenchConsumer");
        PollRecords = env.GetMethodId(consumer, "pollRecords", "(I)Lorg/apache/kafka/clients/consumer/ConsumerRecords;");
        env.DeleteGlobalRef(consumer);
        var records = env.FindClassGlobal("org/apache/kafka/clients/consumer/ConsumerRecords");
        Iterator = env.GetMethodId(records, "iterator", "()Ljava/util/Iterator;");
        env.DeleteGlobalRef(records);
        var iterator = env.FindClassGlobal("java/util/Iterator");
        HasNext = env.GetMethodId(iterator, "hasNext", "()Z");
        Next = env.GetMethodId(iterator, "next", "()Ljava/lang/Object;");
        env.DeleteGlobalRef(iterator);
        var record = env.FindClassGlobal("org/apache/kafka/clients/consumer/ConsumerRecord");
        Key = env.GetMethodId(record, "key", "()Ljava/lang/Object;");
        Value = env.GetMethodId(record, "value", "()Ljava/lang/Object;");
        Offset = env.GetMethodId(record, "offset", "()J");
        Partition = env.GetMethodId(record, "partition", "()I");
        env.DeleteGlobalRef(record);
    }

    public IntPtr LongClass { get; }

    public IntPtr LongValueOf { get; }

    public IntPtr RecordClass { get; }

    public IntPtr RecordInit { get; }

    /// <summary><c>ProducerRecord(String, Integer, Object, Object, Iterable)</c>: a record with headers.</summary>
    public IntPtr RecordInitWithHeaders { get; }

    public IntPtr CallbackClass { get; }

    public IntPtr CallbackInit { get; }

    public IntPtr Send { get; }

    public IntPtr KafkaProducerOf { get; }

    /// <summary><c>BenchProducer.headers()</c>: the headers every record carries, or null.</summary>
    public IntPtr HeadersOf { get; }

    public IntPtr PollRecords { get; }

    public IntPtr Iterator { get; }

    public IntPtr HasNext { get; }

    public IntPtr Next { get; }

    public IntPtr Key { get; }

    public IntPtr Value { get; }

    public IntPtr Offset { get; }

    public IntPtr Partition { get; }
}
