namespace KafkaPerf.Clients;

/// <summary>How many broker acknowledgements a producer waits for (Kafka's <c>acks</c>).</summary>
public enum AcksMode
{
    /// <summary><c>acks=0</c>: the producer does not wait for the broker.</summary>
    None,

    /// <summary><c>acks=1</c>: the partition leader has written the record.</summary>
    Leader,

    /// <summary><c>acks=all</c>: every in-sync replica has written the record.</summary>
    All,
}
