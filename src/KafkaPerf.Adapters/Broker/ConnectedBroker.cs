using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Running;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// A plan's broker, ready: where clients connect, and what to stop afterwards (the embedded broker or the container;
/// nothing for an existing cluster). <see cref="ConnectAsync"/> is the one way in for the CLI, the fluent API and the
/// test fixture.
/// </summary>
public sealed class ConnectedBroker : IBrokerLease
{
    /// <summary>How long an existing cluster, or a container's published port, may take to answer a metadata request.</summary>
    public static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(30);

    private ConnectedBroker(ClusterConnection connection, EmbeddedKafkaBroker? embedded, ContainerKafkaBroker? container)
    {
        Connection = connection;
        Embedded = embedded;
        Container = container;
    }

    /// <summary>Where clients connect, with the broker's description for the result.</summary>
    public ClusterConnection Connection { get; }

    /// <summary>The embedded broker, when that is the source.</summary>
    public EmbeddedKafkaBroker? Embedded { get; }

    /// <summary>The container, when that is the source.</summary>
    public ContainerKafkaBroker? Container { get; }

    /// <summary>Starts or checks the broker of <paramref name="source"/>.</summary>
    /// <param name="source">Where it comes from.</param>
    /// <param name="log">Progress lines (<c>kafkaperf: …</c>), or <see langword="null"/> for none.</param>
    /// <param name="cancellationToken">Stops the start; nothing is left behind.</param>
    /// <returns>The broker, which the caller disposes.</returns>
    /// <exception cref="PrerequisiteException">Java, jars or librdkafka missing, no Docker engine, an image that cannot be
    /// had, or a cluster that does not answer; one line.</exception>
    /// <exception cref="BrokerStartException">The embedded broker or the container did not become ready.</exception>
    public static async Task<ConnectedBroker> ConnectAsync(BrokerSource source, TextWriter? log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        switch (source)
        {
            case BrokerSource.ExistingCluster cluster:
            {
                var security = cluster.Security;
                log?.WriteLine($"kafkaperf: checking the Kafka cluster at {cluster.BootstrapServers}{(security.IsSecured ? $" ({security})" : string.Empty)}");
                // The probe cannot be interrupted; a cancellation stops waiting for it at once.
                int brokers;
                try
                {
                    // Bounded even if librdkafka itself hangs: the probe's thread is then left behind, the tool ends.
                    brokers = await Task.Run(() => ConfluentClientFactory.ProbeBroker(cluster.BootstrapServers, ProbeTimeout, security), CancellationToken.None)
                        .WaitAsync(ProbeTimeout + TimeSpan.FromSeconds(5), cancellationToken).ConfigureAwait(false);
                }
                catch (TimeoutException ex)
                {
                    throw new PrerequisiteException(
                        $"No Kafka broker answered at '{cluster.BootstrapServers}' within {ProbeTimeout.TotalSeconds:0} s (librdkafka did not return): check --bootstrap and --security.", ex);
                }
                return new ConnectedBroker(new ClusterConnection(cluster.BootstrapServers)
                {
                    BrokerDescription = $"external cluster, {brokers} broker(s){Secured(security)}",
                    Brokers = brokers,
                    Security = security,
                    CheckReachable = (timeout, token) => ConfluentClientFactory.CheckReachableAsync(cluster.BootstrapServers, timeout, token, security),
                    Readiness = new ConfluentClusterReadiness(cluster.BootstrapServers, security),
                    GroupCoordinator = new ConfluentGroupCoordinatorView(cluster.BootstrapServers, security),
                    Faults = new ClusterFaults(cluster.BootstrapServers, security, ClusterFaults.BootstrapName),
                }, null, null);
            }
            case BrokerSource.ContainerBroker container:
            {
                log?.WriteLine($"kafkaperf: starting a Kafka container from {container.Image} (Testcontainers)");
                var broker = await ContainerKafkaBroker.StartAsync(container.Image, cancellationToken).ConfigureAwait(false);
                try
                {
                    await Task.Run(() => ConfluentClientFactory.ProbeBroker(broker.BootstrapServers, ProbeTimeout), CancellationToken.None)
                        .WaitAsync(cancellationToken).ConfigureAwait(false);
                }
                catch
                {
                    await broker.DisposeAsync().ConfigureAwait(false);
                    throw;
                }
                log?.WriteLine($"kafkaperf: container broker ready at {broker.BootstrapServers} in {broker.StartupTime.TotalSeconds:0.0} s");
                var connection = new ClusterConnection(broker.BootstrapServers, broker.KafkaVersion)
                {
                    BrokerDescription = $"Kafka container from {broker.Image} (Testcontainers), started in {broker.StartupTime.TotalSeconds:0.0} s",
                    Brokers = 1,
                    CheckReachable = (timeout, token) => ConfluentClientFactory.CheckReachableAsync(broker.BootstrapServers, timeout, token),
                    Readiness = new ConfluentClusterReadiness(broker.BootstrapServers),
                    GroupCoordinator = new ConfluentGroupCoordinatorView(broker.BootstrapServers),
                    BrokerName = "the Kafka container",
                    Ephemeral = true,
                    Faults = new ClusterFaults(broker.BootstrapServers, KafkaSecurity.Plaintext, ClusterFaults.ContainerName),
                };
                return new ConnectedBroker(connection, null, broker);
            }
            case BrokerSource.EmbeddedBroker embedded:
            {
                var jars = KafkaJars.Locate(embedded.Options.KafkaHome);
                int count = embedded.Options.Brokers;
                log?.WriteLine(count == 1
                    ? $"kafkaperf: starting the embedded Kafka {jars.KafkaVersion} broker; jars from {jars.Origin}"
                    : $"kafkaperf: starting an embedded Kafka {jars.KafkaVersion} cluster of {count} brokers; jars from {jars.Origin}");
                var broker = await EmbeddedKafkaBroker.StartAsync(embedded.Options, cancellationToken).ConfigureAwait(false);
                log?.WriteLine($"kafkaperf: {(count == 1 ? "broker" : "cluster")} ready at {broker.BootstrapServers} in {broker.StartupTime.TotalSeconds:0.0} s");
                // A node lost while the cluster goes on is said, not fatal: the plan's runs show what it cost.
                if (log is not null) broker.NodeExited += (_, exit) => log.WriteLine(
                    $"kafkaperf: {exit.What}; the cluster goes on without it{(exit.LogPath is null ? string.Empty : $" (its log: {exit.LogPath})")}");
                var connection = new ClusterConnection(broker.BootstrapServers, broker.KafkaVersion)
                {
                    BrokerDescription = Describe(broker, embedded.Options) + Secured(broker.Security),
                    Brokers = count,
                    Security = broker.Security,
                    // The keystore's and the users' passwords are in it.
                    BrokerConfig = KafkaSecurity.Mask(broker.Config),
                    BrokerProbe = broker.Probe,
                    BrokerBreakdown = broker.Breakdown,
                    BrokerExited = broker.UnexpectedExit,
                    BrokerName = count == 1 ? "the embedded broker" : "the embedded cluster",
                    Ephemeral = true,
                    // A broker that is alive but does not answer (stopped, swapping, stuck in a pause) is asked after a failed run.
                    CheckReachable = (timeout, token) => ConfluentClientFactory.CheckReachableAsync(broker.BootstrapServers, timeout, token, broker.Security),
                    // Every node learns a new topic a moment after the controller: no client starts before the last one has.
                    Readiness = new ConfluentClusterReadiness(broker.BootstrapServers, broker.Security),
                    GroupCoordinator = new ConfluentGroupCoordinatorView(broker.BootstrapServers, broker.Security),
                    Faults = new EmbeddedFaults(broker),
                    Network = broker.Network,
                };
                broker.NetworkLog = log;
                return new ConnectedBroker(connection, broker, null);
            }
            default:
                throw new ArgumentException($"Unknown broker source {source}.", nameof(source));
        }
    }

    /// <summary>The embedded broker's shape for the result, e.g. <c>embedded KRaft cluster of 3 nodes (each broker and
    /// controller), 1024 MB heap each, started in 6.1 s</c>.</summary>
    internal static string Describe(EmbeddedKafkaBroker broker, EmbeddedKafkaBrokerOptions options)
    {
        if (broker.Nodes.Count == 1)
            return $"embedded KRaft broker, {options.HeapMegabytes} MB heap{JvmOptionsVariable.Describe(JvmOptionsVariable.Read(JvmOptionsVariable.Broker))}, started in {broker.StartupTime.TotalSeconds:0.0} s";
        int controllers = broker.Controllers;
        string roles = controllers == broker.Nodes.Count ? "each broker and controller"
            : $"{controllers} broker and controller, {broker.Nodes.Count - controllers} broker only";
        return $"embedded KRaft cluster of {broker.Nodes.Count} nodes ({roles}), {options.HeapMegabytes} MB heap each{JvmOptionsVariable.Describe(JvmOptionsVariable.Read(JvmOptionsVariable.Broker))}, started in {broker.StartupTime.TotalSeconds:0.0} s";
    }

    /// <summary>The listener's security for the broker's description: nothing for plain TCP.</summary>
    private static string Secured(KafkaSecurity security) => security.IsSecured ? $", clients on {security}" : string.Empty;

    /// <summary>For a process that must end now: kills the embedded broker (SIGKILL) and gives the container a second to
    /// go; nothing for an existing cluster.</summary>
    public void KillNow()
    {
        Embedded?.Kill();
        if (Container is not null) Container.DisposeAsync().AsTask().Wait(TimeSpan.FromSeconds(1));
    }

    /// <summary>Stops the embedded broker or removes the container.</summary>
    /// <returns>A task that completes when it is gone.</returns>
    public async ValueTask DisposeAsync()
    {
        (Connection.Faults as IDisposable)?.Dispose();
        if (Embedded is not null) await Embedded.DisposeAsync().ConfigureAwait(false);
        if (Container is not null) await Container.DisposeAsync().ConfigureAwait(false);
    }
}
