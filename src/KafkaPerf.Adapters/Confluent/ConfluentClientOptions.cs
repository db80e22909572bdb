namespace KafkaPerf.Adapters.Confluent;

/// <summary>Options of the <c>confluent</c> client.</summary>
public sealed record ConfluentClientOptions
{
    /// <summary>How long the client waits for a broker to answer its first metadata request (default 30 s).</summary>
    public TimeSpan ConnectTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How long topic creation, deletion and a producer's first metadata may take (default 30 s).</summary>
    public TimeSpan MetadataTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Added to every style's name: <c>@2.15.1</c> makes <c>confluent@2.15.1</c>, <c>confluent-async@2.15.1</c>, …
    /// for a Confluent.Kafka version loaded beside the default one (<c>KafkaPerf.Adapters.Plugins.ClientVersions</c>).</summary>
    public string NameSuffix { get; init; } = string.Empty;
}
