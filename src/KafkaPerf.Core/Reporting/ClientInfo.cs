using KafkaPerf.Clients;

namespace KafkaPerf.Reporting;

/// <summary>A client as it took part in a plan, with the configuration it really ran with.</summary>
public sealed record ClientInfo
{
    /// <summary>Registration name.</summary>
    public required string Name { get; init; }

    /// <summary>Client library version.</summary>
    public required string LibraryVersion { get; init; }

    /// <summary>Capabilities.</summary>
    public required ClientCapabilities Capabilities { get; init; }

    /// <summary>Where a client from outside the tool came from (a plugin's assembly, a client version's folder and packages);
    /// <see langword="null"/> for a built-in client.</summary>
    public string? Origin { get; init; }

    /// <summary>What the client ran on (e.g. its native library's version and file), from <see cref="IBenchClient.Details"/>.</summary>
    public IReadOnlyDictionary<string, string>? Details { get; init; }

    /// <summary>Effective producer configuration of its first run.</summary>
    public IReadOnlyDictionary<string, string>? ProducerConfig { get; init; }

    /// <summary>Effective consumer configuration of its first run.</summary>
    public IReadOnlyDictionary<string, string>? ConsumerConfig { get; init; }

    /// <summary>When the plan sweeps settings: the effective configuration of every variant, by its label
    /// (e.g. <c>acks=1 linger.ms=5</c>); <see langword="null"/> for a single variant.</summary>
    public IReadOnlyDictionary<string, VariantConfig>? VariantConfigs { get; init; }
}
