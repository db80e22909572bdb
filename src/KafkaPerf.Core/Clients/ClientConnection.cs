namespace KafkaPerf.Clients;

/// <summary>Where clients connect.</summary>
/// <param name="BootstrapServers">Kafka bootstrap servers (<c>host:port,…</c>); <see langword="null"/> for clients that need no broker.</param>
/// <param name="BrokerVersion">The broker's version when known, for the result's environment.</param>
public sealed record ClientConnection(string? BootstrapServers, string? BrokerVersion = null)
{
    /// <summary>No broker: only clients such as <c>inmemory</c> can run.</summary>
    public static ClientConnection None { get; } = new((string?)null);
}
