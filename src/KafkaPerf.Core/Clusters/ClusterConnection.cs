using KafkaPerf.Clients;

namespace KafkaPerf.Clusters;

/// <summary>The cluster as the runner sees it: where clients connect, and what the runner alone may do with the cluster
/// (inject faults, probe its brokers, wait for readiness, watch a broker process end). Clients get only its
/// <see cref="Endpoint"/>.</summary>
/// <param name="BootstrapServers">Kafka bootstrap servers (<c>host:port,…</c>); <see langword="null"/> for clients that need no broker.</param>
/// <param name="BrokerVersion">The broker's version when known, for the result's environment.</param>
public sealed record ClusterConnection(string? BootstrapServers, string? BrokerVersion = null)
{
    /// <summary>No broker: only clients such as <c>inmemory</c> can run.</summary>
    public static ClusterConnection None { get; } = new((string?)null);

    /// <summary>How the broker came to be, e.g. <c>embedded, started in 3.4 s</c> or <c>external</c>.</summary>
    public string? BrokerDescription { get; init; }

    /// <summary>How clients reach the listener: protocol, SASL credentials, CA file. Plain TCP by default.</summary>
    public KafkaSecurity Security { get; init; } = KafkaSecurity.Plaintext;

    /// <summary>How many brokers the cluster has, when known: the default replication factor follows it.</summary>
    public int? Brokers { get; init; }

    /// <summary>The broker's configuration when known (the embedded broker's <c>server.properties</c>).</summary>
    public IReadOnlyDictionary<string, string>? BrokerConfig { get; init; }

    /// <summary>Reads the broker's CPU time and topic sizes on disk; <see langword="null"/> when the broker is not
    /// this machine's to look at (an external cluster, no broker at all).</summary>
    public IBrokerProbe? BrokerProbe { get; init; }

    /// <summary>Reads the broker's request metrics and collections per interval for the breakdown; <see langword="null"/>
    /// when the broker cannot be asked (an external cluster, a container).</summary>
    public IBrokerBreakdown? BrokerBreakdown { get; init; }

    /// <summary>Completes when the broker process this plan started (the embedded broker) has ended by itself, saying how
    /// and where its log is; <see langword="null"/> when no such process is watched. The runner then fails the run in
    /// progress at once and attempts no other.</summary>
    public Task<BrokerExit>? BrokerExited { get; init; }

    /// <summary>Asks the cluster whether it answers: <see langword="null"/> when it does, otherwise why not (one line).
    /// The runner asks after a failed run before going on; <see langword="null"/> when there is nothing to ask.</summary>
    public Func<TimeSpan, CancellationToken, Task<string?>>? CheckReachable { get; init; }

    /// <summary>Waits until every broker knows a run's topic and its groups' coordinator answers; the runner asks after
    /// creating a run's topic and after healing a fault, before any client starts. <see langword="null"/> when there is
    /// nothing to ask (no broker).</summary>
    public IClusterReadiness? Readiness { get; init; }

    /// <summary>Describes a run's consumer group as its coordinator sees it, during runs with membership events;
    /// <see langword="null"/> when there is nothing to ask (no broker).</summary>
    public IGroupCoordinatorView? GroupCoordinator { get; init; }

    /// <summary>Whether the broker goes when the plan ends (the embedded broker, a container): topics it could not delete
    /// go with it, and nobody need be told to delete them.</summary>
    public bool Ephemeral { get; init; }

    /// <summary>What the cluster can do to itself for <c>--fault</c>; <see langword="null"/> where faults cannot run.</summary>
    public IFaultInjector? Faults { get; init; }

    /// <summary>The shaping proxies in front of the nodes (<c>--network</c>); <see langword="null"/> where clients reach
    /// the nodes directly.</summary>
    public INetworkShaper? Network { get; init; }

    /// <summary>What to call the broker in a line for the user, e.g. <c>the embedded broker</c>.</summary>
    public string BrokerName { get; init; } = "the Kafka cluster";

    /// <summary>The longest a client's wait may last without progress (connecting, metadata, admin requests, closing);
    /// the runner sets the plan's.</summary>
    public TimeSpan StallTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Whether the links to this cluster are shaped by another process: a worker's, whose coordinator shapes the
    /// proxies of the broker it started before each run (and refused the network where it has none).</summary>
    public bool NetworkShapedByCoordinator { get; init; }

    /// <summary>What the plan's checks are given.</summary>
    internal ClusterFacts Facts => new(!string.IsNullOrWhiteSpace(BootstrapServers), Brokers, Ephemeral, BrokerName, Faults is { } faults ? faults.Refuse : null)
    {
        ShapesNetwork = Network is not null || NetworkShapedByCoordinator,
    };

    /// <summary>What a client factory is given: bootstrap servers, security and the stall timeout, nothing else.</summary>
    public KafkaEndpoint Endpoint => new(BootstrapServers) { Security = Security, StallTimeout = StallTimeout };
}
