namespace KafkaPerf.Clients;

/// <summary>Where clients connect.</summary>
/// <param name="BootstrapServers">Kafka bootstrap servers (<c>host:port,…</c>); <see langword="null"/> for clients that need no broker.</param>
/// <param name="BrokerVersion">The broker's version when known, for the result's environment.</param>
public sealed record ClientConnection(string? BootstrapServers, string? BrokerVersion = null)
{
    /// <summary>No broker: only clients such as <c>inmemory</c> can run.</summary>
    public static ClientConnection None { get; } = new((string?)null);

    /// <summary>How the broker came to be, e.g. <c>embedded, started in 3.4 s</c> or <c>external</c>.</summary>
    public string? BrokerDescription { get; init; }

    /// <summary>The broker's configuration when known (the embedded broker's <c>server.properties</c>).</summary>
    public IReadOnlyDictionary<string, string>? BrokerConfig { get; init; }

    /// <summary>Reads the broker's CPU time and topic sizes on disk; <see langword="null"/> when the broker is not
    /// this machine's to look at (an external cluster, no broker at all).</summary>
    public IBrokerProbe? BrokerProbe { get; init; }
}
