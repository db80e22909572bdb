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

/// <summary>Kafka's spelling of <see cref="AcksMode"/>, the same for every client.</summary>
public static class AcksModeExtensions
{
    /// <summary>The <c>acks</c> value: <c>0</c>, <c>1</c> or <c>all</c>.</summary>
    /// <param name="acks">The mode.</param>
    /// <returns>The value.</returns>
    public static string ToKafkaValue(this AcksMode acks) => acks switch { AcksMode.None => "0", AcksMode.Leader => "1", _ => "all" };
}
