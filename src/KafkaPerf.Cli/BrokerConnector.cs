using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Cli;

/// <summary>
/// Gives a plan its broker: the embedded one when no <c>--bootstrap</c> is given, otherwise the named cluster
/// once it has answered a metadata request within <see cref="ProbeTimeout"/>.
/// </summary>
internal static class BrokerConnector
{
    /// <summary>How long an external cluster may take to answer before the run is refused.</summary>
    public static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(30);

    /// <summary>Connects.</summary>
    /// <param name="bootstrap">The user's <c>--bootstrap</c>, or <see langword="null"/> for the embedded broker.</param>
    /// <param name="brokerOptions">Options of the embedded broker.</param>
    /// <param name="log">Progress lines, or <see langword="null"/> for none.</param>
    /// <param name="cancellationToken">Stops the start.</param>
    /// <returns>The connection, and the broker to dispose when it is embedded.</returns>
    /// <exception cref="KafkaPerf.Adapters.PrerequisiteException">Java, jars or librdkafka missing, or the cluster did not answer.</exception>
    /// <exception cref="BrokerStartException">The embedded broker did not start.</exception>
    public static async Task<(ClientConnection Connection, EmbeddedKafkaBroker? Broker)> ConnectAsync(
        string? bootstrap, EmbeddedKafkaBrokerOptions brokerOptions, TextWriter? log, CancellationToken cancellationToken)
    {
        if (bootstrap is not null)
        {
            log?.WriteLine($"kafkaperf: checking the Kafka cluster at {bootstrap}");
            // The probe cannot be interrupted; Ctrl+C stops waiting for it at once.
            int brokers = await Task.Run(() => ConfluentClientFactory.ProbeBroker(bootstrap, ProbeTimeout), CancellationToken.None).WaitAsync(cancellationToken);
            return (new ClientConnection(bootstrap) { BrokerDescription = $"external cluster, {brokers} broker(s)" }, null);
        }

        var jars = KafkaJars.Locate(brokerOptions.KafkaHome);
        log?.WriteLine($"kafkaperf: starting the embedded Kafka {jars.KafkaVersion} broker (jars from {jars.Origin})");
        var broker = await EmbeddedKafkaBroker.StartAsync(brokerOptions, cancellationToken);
        log?.WriteLine($"kafkaperf: broker ready at {broker.BootstrapServers} in {broker.StartupTime.TotalSeconds:0.0} s");
        var connection = new ClientConnection(broker.BootstrapServers, broker.KafkaVersion)
        {
            BrokerDescription = $"embedded KRaft broker, {brokerOptions.HeapMegabytes} MB heap, started in {broker.StartupTime.TotalSeconds:0.0} s",
            BrokerConfig = broker.Config,
            BrokerProbe = broker.Probe,
        };
        return (connection, broker);
    }
}
