using System.CommandLine;
using System.Globalization;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Clients;
using KafkaPerf.Plans;

namespace KafkaPerf.Cli.Commands;

/// <summary>Where <c>run</c>'s and <c>find-rate</c>'s broker comes from: the embedded broker or cluster (the default), a
/// container, or <c>--bootstrap</c>'s cluster; with its security. Read in one place into a <see cref="BrokerSource"/>.</summary>
internal static class BrokerOptions
{
    public static readonly Option<string?> Bootstrap = new("--bootstrap") { Description = "An existing Kafka cluster (host:port,…); without it an embedded broker starts." };
    public static readonly Option<string?> Broker = new("--broker") { Description = "Where the broker comes from when --bootstrap names none: embedded (the default: KafkaPerf starts Apache Kafka as a child JVM) or testcontainers[:IMAGE] (a Kafka container through Testcontainers; apache/kafka:4.3.1 by default)." };
    public static readonly Option<string?> KafkaHome = new("--kafka-home") { Description = "An unpacked Apache Kafka distribution whose libs/ the embedded broker and the java clients use (as KAFKAPERF_KAFKA_HOME)." };
    public static readonly Option<int> BrokerHeap = new("--broker-heap") { Description = "Java heap of each embedded broker, in MB.", DefaultValueFactory = _ => EmbeddedKafkaBrokerOptions.DefaultHeapMegabytes };
    public static readonly Option<int> Brokers = new("--brokers") { Description = $"Brokers of the embedded cluster (1 to {EmbeddedKafkaBrokerOptions.MaxBrokers}), each a JVM on loopback; the first 3 are controllers too.", DefaultValueFactory = _ => 1 };

    /// <summary>The options, in --help's order.</summary>
    public static Option[] All => [Bootstrap, Broker, KafkaHome, BrokerHeap, Brokers];

    /// <summary>Points every part that reads Kafka's jars (the broker, the java clients' class path) at <c>--kafka-home</c>,
    /// through the variable they all read.</summary>
    /// <param name="parse">The command line.</param>
    /// <exception cref="PlanValidationException">The folder is not a Kafka distribution; one line.</exception>
    public static void ApplyKafkaHome(ParseResult parse)
    {
        if (parse.GetValue(KafkaHome) is not { } kafkaHome) return;
        try
        {
            KafkaJars.Locate(kafkaHome);
        }
        catch (PrerequisiteException ex)
        {
            throw new PlanValidationException(ex.Message.Replace($"{KafkaJars.KafkaHomeVariable} is", "--kafka-home is", StringComparison.Ordinal)
                .Replace($"or unset it", "or leave --kafka-home out", StringComparison.Ordinal), ex);
        }
        Environment.SetEnvironmentVariable(KafkaJars.KafkaHomeVariable, Path.GetFullPath(kafkaHome));
    }

    /// <summary>Reads the broker's source.</summary>
    /// <param name="parse">The command line.</param>
    /// <param name="defaults">The embedded broker's defaults.</param>
    /// <param name="crashLogPath">Where a broker that dies leaves a copy of its log.</param>
    /// <param name="notes">Lines for options that are given but not used.</param>
    /// <returns>The source.</returns>
    /// <exception cref="PlanValidationException">Bad input; one line.</exception>
    public static BrokerSource Read(ParseResult parse, EmbeddedKafkaBrokerOptions defaults, string crashLogPath, out IReadOnlyList<string> notes)
    {
        var options = defaults with { HeapMegabytes = parse.GetValue(BrokerHeap), Brokers = parse.GetValue(Brokers) };
        if (options.HeapMegabytes < EmbeddedKafkaBrokerOptions.MinimumHeapMegabytes)
            throw new PlanValidationException($"Broker heap {options.HeapMegabytes} MB is too small: use --broker-heap {EmbeddedKafkaBrokerOptions.MinimumHeapMegabytes} or more.");
        if (options.Brokers is < 1 or > EmbeddedKafkaBrokerOptions.MaxBrokers)
            throw new PlanValidationException(
                $"--brokers {options.Brokers} is out of range: the embedded cluster has 1 to {EmbeddedKafkaBrokerOptions.MaxBrokers} brokers (3 is a replicated cluster).");
        var bootstrap = parse.GetValue(Bootstrap);
        if (bootstrap is not null && !IsBootstrapList(bootstrap))
            throw new PlanValidationException($"--bootstrap '{bootstrap}' is not host:port[,host:port…]: give the address of a broker, e.g. --bootstrap localhost:9092.");
        bool embedded = bootstrap is null && (parse.GetValue(Broker) is not { } b || b.Trim().Equals("embedded", StringComparison.OrdinalIgnoreCase));
        var security = SecurityOptions.Read(parse, embedded);
        if (security.IsSecured && bootstrap is null && !embedded)
            throw new PlanValidationException($"--security {KafkaSecurity.CliName(security.Protocol)} is for the embedded cluster or a --bootstrap cluster: a Testcontainers broker listens in plain TCP.");
        options = options with { Security = embedded ? security : KafkaSecurity.Plaintext, CrashLogPath = crashLogPath };
        if (embedded)
        {
            try
            {
                options.Validate();
            }
            catch (ArgumentException ex) when (ex is not ArgumentOutOfRangeException && ex.ParamName == nameof(EmbeddedKafkaBrokerOptions.Security))
            {
                throw new PlanValidationException($"{ex.Message.Split(" (Parameter")[0]} Change the credentials (--sasl-credentials or {SecurityOptions.UsernameVariable}/{SecurityOptions.PasswordVariable}).");
            }
        }

        BrokerSource source = BrokerSource.Embedded(options);
        if (bootstrap is not null)
        {
            if (parse.GetValue(Broker) is not null)
                throw new PlanValidationException("--broker and --bootstrap both say where the broker is: give one (--bootstrap names an existing cluster).");
            source = BrokerSource.Cluster(bootstrap, security);
        }
        else if (parse.GetValue(Broker) is { } brokerText && !BrokerSource.TryParse(brokerText, options, out source))
        {
            throw new PlanValidationException($"--broker '{brokerText}' is not embedded, testcontainers or testcontainers:IMAGE: e.g. --broker testcontainers:apache/kafka:4.3.1.");
        }
        var lines = new List<string>();
        if (source is not BrokerSource.EmbeddedBroker && parse.GetResult(BrokerHeap) is { Implicit: false })
            lines.Add("kafkaperf: --broker-heap is not used: it sizes the embedded broker, and this run's broker is not one.");
        if (source is not BrokerSource.EmbeddedBroker && parse.GetResult(Brokers) is { Implicit: false })
            throw new PlanValidationException("--brokers sizes the embedded cluster, and this run's broker is not one: leave --brokers out, or --bootstrap and --broker.");
        notes = lines;
        return source;
    }

    /// <summary>Whether <paramref name="value"/> is <c>host:port[,host:port…]</c>.</summary>
    public static bool IsBootstrapList(string value) =>
        PlanOptions.List(value) is { Length: > 0 } servers && servers.All(server =>
            server.LastIndexOf(':') is var colon and > 0
            && int.TryParse(server.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port is > 0 and < 65536);
}
