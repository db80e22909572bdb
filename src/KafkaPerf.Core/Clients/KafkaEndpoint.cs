namespace KafkaPerf.Clients;

/// <summary>
/// What a client needs to reach the cluster, and all a client factory is given (<see cref="IBenchClientFactory.Create"/>):
/// the bootstrap servers, how to authenticate, and how long a wait may last without progress. Topics, groups and the
/// client's own settings come with each producer and consumer (<see cref="ProducerSpec"/>, <see cref="ConsumerSpec"/>).
/// The cluster's faults, probes and readiness are the runner's and never reach a client.
/// </summary>
/// <param name="BootstrapServers">Kafka bootstrap servers (<c>host:port,…</c>); <see langword="null"/> for clients that need no broker.</param>
public sealed record KafkaEndpoint(string? BootstrapServers)
{
    /// <summary>No broker: only clients such as <c>inmemory</c> can run.</summary>
    public static KafkaEndpoint None { get; } = new((string?)null);

    /// <summary>How clients reach the listener: protocol, SASL credentials, CA file. Plain TCP by default.</summary>
    public KafkaSecurity Security { get; init; } = KafkaSecurity.Plaintext;

    /// <summary>The longest a client's wait may last without progress (connecting, metadata, admin requests, closing).</summary>
    public TimeSpan StallTimeout { get; init; } = TimeSpan.FromSeconds(30);
}
