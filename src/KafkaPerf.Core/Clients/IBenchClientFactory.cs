
namespace KafkaPerf.Clients;

/// <summary>Creates one kind of client by name; registered through DI so plans can name clients.</summary>
public interface IBenchClientFactory
{
    /// <summary>The name plans use, e.g. <c>confluent</c>. Lower case, no spaces.</summary>
    string Name { get; }

    /// <summary>One line for <c>kafkaperf clients</c>.</summary>
    string Description { get; }

    /// <summary>The library and version this client runs, when known without starting it (for <c>kafkaperf clients</c>).</summary>
    /// <returns>E.g. <c>Confluent.Kafka 2.16.0, librdkafka 2.16.0</c>; <see langword="null"/> when it cannot be told here.</returns>
    string? DescribeLibrary() => null;

    /// <summary>What the client can do beyond the minimum (the same as its clients' <see cref="IBenchClient.Capabilities"/>).</summary>
    ClientCapabilities Capabilities => ClientCapabilities.None;

    /// <summary>Whether this is a reference tool (its clients are <c>IReferenceClient</c>s), named in a plan's
    /// references rather than its clients.</summary>
    bool IsReference => false;

    /// <summary>Whether the client needs a broker (a bootstrap address).</summary>
    bool RequiresBroker { get; }

    /// <summary>Whether the client can run on this machine, checked before anything starts.</summary>
    /// <returns><see langword="null"/> when it can; otherwise one line saying what is missing and what to do.</returns>
    string? CheckAvailability() => null;

    /// <summary>Whether the client accepts these settings (e.g. every <c>key=value</c> override), checked before anything
    /// starts, so that a typo fails at once instead of failing every run.</summary>
    /// <param name="settings">A settings variant with this client's overrides.</param>
    /// <returns><see langword="null"/> when they are usable; otherwise one line saying what is wrong.</returns>
    string? CheckSettings(ClientSettings settings) => null;

    /// <summary>Settings that cannot mean the same on this client as on others (e.g. a default that differs from
    /// librdkafka's), recorded as the plan's warnings.</summary>
    /// <param name="settings">A settings variant with this client's overrides.</param>
    /// <returns>One line per caveat; empty when there is none.</returns>
    IReadOnlyList<string> SettingsWarnings(ClientSettings settings) => [];

    /// <summary>Where this client's defaults for the settings that govern failover (timeouts, retries, backoffs,
    /// metadata refresh, idempotence) differ from the other clients', said when a plan has faults (<c>--fault</c>).</summary>
    /// <param name="settings">The settings a variant gives this client.</param>
    /// <returns>Warnings; empty by default.</returns>
    IReadOnlyList<string> FailoverWarnings(ClientSettings settings) => [];

    /// <summary>Creates the client. Any start-up cost (a JVM, a connection) is paid here, outside timing.</summary>
    /// <param name="endpoint">Where and how to connect: bootstrap servers, security, the stall timeout.</param>
    /// <returns>A client that the caller disposes.</returns>
    IBenchClient Create(KafkaEndpoint endpoint);
}
