using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>What an <see cref="EmbeddedKafkaBroker"/>'s nodes are started with: each node's <c>server.properties</c> (and
/// its secured listener), its log configuration, the cluster id and free ports.</summary>
internal static class BrokerConfiguration
{
    /// <summary>One node's <c>server.properties</c>.</summary>
    /// <param name="dataDirectory">The node's folder.</param>
    /// <param name="nodeId">Its id, from 1.</param>
    /// <param name="brokers">How many nodes the cluster has.</param>
    /// <param name="port">Its client port.</param>
    /// <param name="controllerPort">Its controller port (unused by a broker-only node).</param>
    /// <param name="voters">The static quorum (<c>id@host:port,…</c>) of a cluster; <see langword="null"/> for one node.</param>
    /// <param name="extra">Settings that add to or replace these.</param>
    /// <returns>The settings.</returns>
    /// <param name="listener">A secured client listener, or <see langword="null"/> for plain TCP.</param>
    /// <param name="proxied">With shaping proxies: the node's plain inter-broker port and the proxies' ports it advertises.</param>
    internal static Dictionary<string, string> ServerConfig(string dataDirectory, int nodeId, int brokers, int port, int controllerPort, string? voters,
        IReadOnlyDictionary<string, string> extra, ListenerSecurity? listener = null, ProxiedListeners? proxied = null)
    {
        bool controller = nodeId <= EmbeddedKafkaBroker.ControllersFor(brokers);
        // Internal topics replicate as production clusters do (3 where there are 3 nodes, at least 2 in sync).
        string replicas = Math.Min(brokers, 3).ToString(CultureInfo.InvariantCulture);
        string minInSync = Math.Min(brokers, 2).ToString(CultureInfo.InvariantCulture);
        var config = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["process.roles"] = controller ? "broker,controller" : "broker",
            ["node.id"] = nodeId.ToString(CultureInfo.InvariantCulture),
            ["listeners"] = controller ? $"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controllerPort}" : $"PLAINTEXT://127.0.0.1:{port}",
            ["advertised.listeners"] = $"PLAINTEXT://127.0.0.1:{port}",
            ["controller.listener.names"] = "CONTROLLER",
            ["listener.security.protocol.map"] = "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            ["inter.broker.listener.name"] = "PLAINTEXT",
            ["log.dirs"] = Path.Combine(dataDirectory, EmbeddedKafkaBroker.LogFolderName),
            ["num.partitions"] = "1",
            // Benchmarks create every topic themselves; a typo must fail, not create a topic silently.
            ["auto.create.topics.enable"] = "false",
            ["offsets.topic.replication.factor"] = replicas,
            // One partition of consumer offsets keeps the group coordinator quick to load.
            ["offsets.topic.num.partitions"] = "1",
            ["transaction.state.log.replication.factor"] = replicas,
            ["transaction.state.log.min.isr"] = minInSync,
            ["share.coordinator.state.topic.replication.factor"] = replicas,
            ["share.coordinator.state.topic.min.isr"] = minInSync,
            // A lone consumer is assigned at once instead of after Kafka's default 3 s wait for more members.
            ["group.initial.rebalance.delay.ms"] = "0",
            // A deleted run topic's files go within a second, not after Kafka's default minute: with 10 GB runs every
            // few seconds, the minute's worth of deleted topics held 60 GB of the disk. (0 would park a scheduler thread
            // on the queue of logs to delete.) The broker's log tasks start a second after it, not 30 s.
            ["log.segment.delete.delay.ms"] = "1000",
            ["log.initial.task.delay.ms"] = "1000",
        };
        if (voters is null) config["controller.quorum.bootstrap.servers"] = $"127.0.0.1:{controllerPort}";
        else config["controller.quorum.voters"] = voters;
        if (listener is not null) listener.Apply(config, port, controller ? controllerPort : null);
        proxied?.Apply(config, port, controller ? controllerPort : null, secured: listener is not null);
        foreach (var (key, value) in extra) config[key] = value;
        return config;
    }

    /// <summary>A secured client listener: clients reach <c>CLIENT</c> with the cluster's protocol; the brokers talk to one
    /// another, and the readiness check to each of them, on a plain <c>INTERNAL</c> listener, and controllers on theirs.</summary>
    internal sealed record ListenerSecurity(KafkaSecurity Security, int InternalPort, BrokerCertificates? Certificates)
    {
        public void Apply(Dictionary<string, string> config, int port, int? controllerPort)
        {
            string listeners = $"CLIENT://127.0.0.1:{port},INTERNAL://127.0.0.1:{InternalPort}";
            config["listeners"] = controllerPort is { } c ? $"{listeners},CONTROLLER://127.0.0.1:{c}" : listeners;
            config["advertised.listeners"] = listeners;
            config["listener.security.protocol.map"] = $"CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,CLIENT:{Security.ProtocolName}";
            config["inter.broker.listener.name"] = "INTERNAL";
            if (Certificates is not null)
            {
                config["listener.name.client.ssl.keystore.type"] = "PKCS12";
                config["listener.name.client.ssl.keystore.location"] = Certificates.KeystorePath;
                config["listener.name.client.ssl.keystore.password"] = Certificates.StorePassword;
                config["listener.name.client.ssl.key.password"] = Certificates.StorePassword;
            }
            if (Security.UsesSasl)
            {
                string mechanism = Security.MechanismName;
                config["listener.name.client.sasl.enabled.mechanisms"] = mechanism;
                config[$"listener.name.client.{mechanism.ToLowerInvariant()}.sasl.jaas.config"] = Security.Mechanism == SaslMechanism.Plain
                    ? $"org.apache.kafka.common.security.plain.PlainLoginModule required user_{Security.Username}=\"{Security.RevealPassword()}\";"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule required;";
            }
        }
    }

    /// <summary>A node behind shaping proxies: it listens on its own ports and advertises the proxies' instead, the client
    /// listener's to clients and an <c>INTERNAL</c> listener's to the other brokers, so that client links and inter-broker
    /// links are shaped apart. A controller advertises its controller proxy too: brokers reach the active controller at the
    /// address it registered (KIP-919), not at the voters' addresses, and a partition must cut that link as well.</summary>
    /// <param name="InternalPort">The node's own inter-broker port (a secured cluster's <c>INTERNAL</c> listener).</param>
    /// <param name="ClientProxyPort">The port of the proxy in front of the client listener.</param>
    /// <param name="InternalProxyPort">The port of the proxy in front of the inter-broker listener.</param>
    /// <param name="ControllerProxyPort">The port of the proxy in front of a controller's listener; none for one node.</param>
    internal sealed record ProxiedListeners(int InternalPort, int ClientProxyPort, int InternalProxyPort, int? ControllerProxyPort = null)
    {
        public void Apply(Dictionary<string, string> config, int port, int? controllerPort, bool secured)
        {
            // A secured cluster has its CLIENT and INTERNAL listeners already; a plain one gets an INTERNAL listener here.
            string client = secured ? "CLIENT" : "PLAINTEXT";
            string listeners = $"{client}://127.0.0.1:{port},INTERNAL://127.0.0.1:{InternalPort}";
            config["listeners"] = controllerPort is { } c ? $"{listeners},CONTROLLER://127.0.0.1:{c}" : listeners;
            config["advertised.listeners"] = $"{client}://127.0.0.1:{ClientProxyPort},INTERNAL://127.0.0.1:{InternalProxyPort}"
                + (controllerPort is not null && ControllerProxyPort is { } q ? $",CONTROLLER://127.0.0.1:{q}" : string.Empty);
            if (!secured) config["listener.security.protocol.map"] = "CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,PLAINTEXT:PLAINTEXT";
            config["inter.broker.listener.name"] = "INTERNAL";
        }
    }

    /// <summary>Java's properties format: a backslash escapes.</summary>
    internal static string PropertiesEscape(string value) => value.Replace("\\", "\\\\", StringComparison.Ordinal);

    internal static string LogConfig(string logFile) =>
        $"""
        status = error
        appender.file.type = File
        appender.file.name = file
        appender.file.fileName = {logFile}
        appender.file.layout.type = PatternLayout
        appender.file.layout.pattern = [%d] %p %m (%c)%n
        rootLogger.level = INFO
        rootLogger.appenderRef.file.ref = file
        logger.kafka-request.name = kafka.request.logger
        logger.kafka-request.level = WARN
        logger.readiness-admin.name = org.apache.kafka.clients.admin
        logger.readiness-admin.level = WARN
        """;

    /// <summary>A Kafka cluster id: 16 random bytes in URL-safe base64 without padding, never starting with '-'.</summary>
    internal static string NewClusterId()
    {
        while (true)
        {
            var id = Convert.ToBase64String(RandomNumberGenerator.GetBytes(16)).TrimEnd('=').Replace('+', '-').Replace('/', '_');
            if (id[0] != '-') return id;
        }
    }

    internal static (int Port, int ControllerPort) FreePorts()
    {
        using var first = new TcpListener(IPAddress.Loopback, 0);
        using var second = new TcpListener(IPAddress.Loopback, 0);
        first.Start();
        second.Start();
        int a = ((IPEndPoint)first.LocalEndpoint).Port, b = ((IPEndPoint)second.LocalEndpoint).Port;
        first.Stop();
        second.Stop();
        return (a, b);
    }
}
