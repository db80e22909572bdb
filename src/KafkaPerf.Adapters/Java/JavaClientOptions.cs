namespace KafkaPerf.Adapters.Java;

/// <summary>Options of the <c>java</c> and <c>java-batched</c> clients, which share one in-process JVM.</summary>
public sealed record JavaClientOptions
{
    /// <summary>The JVM's maximum heap in MB (default 1024).</summary>
    public int HeapMegabytes { get; init; } = 1024;

    /// <summary>Further JVM options (e.g. <c>-Xcheck:jni</c>, <c>-XX:+UseParallelGC</c>).</summary>
    public IReadOnlyList<string> JvmOptions { get; init; } = [];

    /// <summary>Jars or class folders added after Kafka's jars and KafkaPerf's own.</summary>
    public IReadOnlyList<string> ExtraClassPath { get; init; } = [];

    /// <summary>A Java installation; <c>KAFKAPERF_JVM</c>, <c>JAVA_HOME</c> or the <c>java</c> on <c>PATH</c> when <see langword="null"/>.</summary>
    public string? JavaHome { get; init; }

    /// <summary>An Apache Kafka distribution whose <c>libs/</c> to use; <c>KAFKAPERF_KAFKA_HOME</c> or the fetched jars when <see langword="null"/>.</summary>
    public string? KafkaHome { get; init; }

    /// <summary>How long the client waits for the cluster to answer, and topic creation and deletion may take (default 30 s).</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary><c>java-batched</c>: the most records packed into one crossing (default 1 000).</summary>
    public int BatchRecords { get; init; } = 1_000;

    /// <summary><c>java-batched</c>: the packing buffer's size in bytes (default 1 MiB; a larger record gets a larger buffer).</summary>
    public int BatchBytes { get; init; } = 1 << 20;

    /// <summary>The consumers' buffer for one crossing's records, in bytes (default 1 MiB; it grows for a larger record).</summary>
    public int ConsumerBufferBytes { get; init; } = 1 << 20;
}
