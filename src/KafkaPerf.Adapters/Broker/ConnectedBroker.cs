using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// A plan's broker, ready: where clients connect, and what to stop afterwards (the embedded broker or the container;
/// nothing for an existing cluster). <see cref="ConnectAsync"/> is the one way in for the CLI, the fluent API and the
/// test fixture.
/// </summary>
public sealed class ConnectedBroker : IAsyncDisposable
{
    /// <summary>How long an existing cluster, or a container's published port, may take to answer a metadata request.</summary>
    public static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(30);

    private ConnectedBroker(ClientConnection connection, EmbeddedKafkaBroker? embedded, ContainerKafkaBroker? container)
    {
        Connection = connection;
        Embedded = embedded;
        Container = container;
    }

    /// <summary>Where clients connect, with the broker's description for the result.</summary>
    public ClientConnection Connection { get; }

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
                log?.WriteLine($"kafkaperf: checking the Kafka cluster at {cluster.BootstrapServers}");
                // The probe cannot be interrupted; a cancellation stops waiting for it at once.
                int brokers = await Task.Run(() => ConfluentClientFactory.ProbeBroker(cluster.BootstrapServers, ProbeTimeout), CancellationToken.None)
                    .WaitAsync(cancellationToken).ConfigureAwait(false);
                return new ConnectedBroker(new ClientConnection(cluster.BootstrapServers)
                {
                    BrokerDescription = $"external cluster, {brokers} broker(s)",
                    CheckReachable = (timeout, token) => ConfluentClientFactory.CheckReachableAsync(cluster.BootstrapServers, timeout, token),
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
                var connection = new ClientConnection(broker.BootstrapServers, broker.KafkaVersion)
                {
                    BrokerDescription = $"Kafka container from {broker.Image} (Testcontainers), started in {broker.StartupTime.TotalSeconds:0.0} s",
                    CheckReachable = (timeout, token) => ConfluentClientFactory.CheckReachableAsync(broker.BootstrapServers, timeout, token),
                    BrokerName = "the Kafka container",
                    Ephemeral = true,
                };
                return new ConnectedBroker(connection, null, broker);
            }
            case BrokerSource.EmbeddedBroker embedded:
            {
                var jars = KafkaJars.Locate(embedded.Options.KafkaHome);
                log?.WriteLine($"kafkaperf: starting the embedded Kafka {jars.KafkaVersion} broker (jars from {jars.Origin})");
                var broker = await EmbeddedKafkaBroker.StartAsync(embedded.Options, cancellationToken).ConfigureAwait(false);
                log?.WriteLine($"kafkaperf: broker ready at {broker.BootstrapServers} in {broker.StartupTime.TotalSeconds:0.0} s");
                var connection = new ClientConnection(broker.BootstrapServers, broker.KafkaVersion)
                {
                    BrokerDescription = $"embedded KRaft broker, {embedded.Options.HeapMegabytes} MB heap, started in {broker.StartupTime.TotalSeconds:0.0} s",
                    BrokerConfig = broker.Config,
                    BrokerProbe = broker.Probe,
                    BrokerExited = broker.UnexpectedExit,
                    BrokerName = "the embedded broker",
                    Ephemeral = true,
                    // A broker that is alive but does not answer (stopped, swapping, stuck in a pause) is asked after a failed run.
                    CheckReachable = (timeout, token) => ConfluentClientFactory.CheckReachableAsync(broker.BootstrapServers, timeout, token),
                };
                return new ConnectedBroker(connection, broker, null);
            }
            default:
                throw new ArgumentException($"Unknown broker source {source}.", nameof(source));
        }
    }

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
        if (Embedded is not null) await Embedded.DisposeAsync().ConfigureAwait(false);
        if (Container is not null) await Container.DisposeAsync().ConfigureAwait(false);
    }
}
