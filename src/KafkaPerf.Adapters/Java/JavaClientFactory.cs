using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Java;

/// <summary>Creates <c>java</c> (one JNI crossing per record), <c>java-batched</c> (one per batch of records) or
/// <c>java-records</c> (the bridge style: several crossings per record, records iterated from .NET).</summary>
public sealed class JavaClientFactory : IBenchClientFactory
{
    /// <summary>The per-record client's name.</summary>
    public const string PerRecordName = "java";

    /// <summary>The batched client's name.</summary>
    public const string BatchedName = "java-batched";

    /// <summary>The bridge-style client's name.</summary>
    public const string RecordsName = "java-records";

    private readonly JavaClientOptions _options;
    private readonly JavaStyle _style;

    /// <summary>Creates <c>java</c> or <c>java-batched</c>.</summary>
    /// <param name="batched">Whether this is <c>java-batched</c>.</param>
    /// <param name="options">JVM and batching options; defaults when omitted. Every Java client shares the first JVM created.</param>
    public JavaClientFactory(bool batched, JavaClientOptions? options = null)
        : this(batched ? JavaStyle.Batched : JavaStyle.PerRecord, options)
    {
    }

    /// <summary>Creates the Java client of a style.</summary>
    /// <param name="style">How the variant crosses into Java.</param>
    /// <param name="options">JVM and batching options; defaults when omitted. Every Java client shares the first JVM created.</param>
    public JavaClientFactory(JavaStyle style, JavaClientOptions? options = null)
    {
        _style = style;
        _options = options ?? new JavaClientOptions();
    }

    /// <summary>The variant's style.</summary>
    public JavaStyle Style => _style;

    /// <inheritdoc />
    public string Name => NameOf(_style);

    /// <inheritdoc />
    public string Description => _style switch
    {
        JavaStyle.Batched => "Apache Kafka Java client in-process (JNI), records packed: one crossing per batch",
        JavaStyle.Records => "Apache Kafka Java client in-process (JNI), bridge style as KNet's plain KafkaProducer/KafkaConsumer: ProducerRecord, boxed key, value array and callback made from .NET, records iterated from .NET",
        _ => "Apache Kafka Java client in-process (JNI), one crossing per record, as KNet's KNetProducer",
    };

    /// <summary>A style's client name.</summary>
    /// <param name="style">The style.</param>
    /// <returns><c>java</c>, <c>java-batched</c> or <c>java-records</c>.</returns>
    public static string NameOf(JavaStyle style) => style switch
    {
        JavaStyle.Batched => BatchedName,
        JavaStyle.Records => RecordsName,
        _ => PerRecordName,
    };

    /// <inheritdoc />
    public bool RequiresBroker => true;

    /// <inheritdoc />
    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency | ClientCapabilities.Prefetch | ClientCapabilities.Workloads | ClientCapabilities.Transactions | ClientCapabilities.ShareGroups | ClientCapabilities.GroupMembership;

    /// <inheritdoc />
    public string? DescribeLibrary()
    {
        try
        {
            var jars = KafkaJars.Locate(_options.KafkaHome);
            return $"Apache Kafka client {jars.KafkaVersion} ({jars.Origin}), in-process JVM from {JvmHost.FindLibJvm(_options.JavaHome)}";
        }
        catch (PrerequisiteException)
        {
            return null;
        }
    }

    /// <inheritdoc />
    public string? CheckAvailability()
    {
        if (JvmHost.Current is not null) return null;
        try
        {
            JvmHost.FindLibJvm(_options.JavaHome);
            KafkaJars.Locate(_options.KafkaHome);
            if (!File.Exists(KafkaJars.ProjectJar))
                return $"KafkaPerf's Java helper '{KafkaJars.ProjectJar}' is missing: rebuild the project with a JDK (javac) on PATH.";
            return JvmHost.CheckEnvironment();
        }
        catch (PrerequisiteException ex)
        {
            return ex.Message;
        }
    }

    /// <inheritdoc />
    /// <exception cref="PrerequisiteException">The JVM cannot start here.</exception>
    public string? CheckSettings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var runtime = JavaRuntime.Get(_options);
        const string Placeholder = "127.0.0.1:9092";
        using var thread = runtime.Host.AttachCurrentThread("kafkaperf-java-check");
        var env = thread.Env;
        var producer = env.NewStringArray(runtime.StringClass, JavaSettings.Flatten(JavaSettings.Producer(Placeholder, settings)));
        var consumer = env.NewStringArray(runtime.StringClass, JavaSettings.Flatten(JavaSettings.Consumer(Placeholder, "check", settings)));
        var keys = env.NewStringArray(runtime.StringClass, [.. settings.Overrides.Keys]);
        try
        {
            var result = env.CallStaticObject(runtime.SettingsClass, runtime.Check, [JValue.Ref(producer), JValue.Ref(consumer), JValue.Ref(keys)]);
            var message = env.GetString(result);
            env.DeleteLocalRef(result);
            return message;
        }
        finally
        {
            env.DeleteLocalRef(keys);
            env.DeleteLocalRef(consumer);
            env.DeleteLocalRef(producer);
        }
    }

    /// <inheritdoc />
    public IReadOnlyList<string> SettingsWarnings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var warnings = new List<string>();
        if (settings.BatchSizeBytes is null && !settings.Overrides.ContainsKey("batch.size"))
            warnings.Add("batch.size is unset: the Java client's default is 16 384 bytes, librdkafka's 1 000 000, so the clients batch differently; set --batch-size to compare like with like.");
        if (settings.MaxInFlight is null && !settings.Overrides.ContainsKey("max.in.flight.requests.per.connection"))
            warnings.Add("max.in.flight is unset: the Java client's default is 5 requests per connection, librdkafka's 1 000 000; set --max-in-flight to compare like with like.");
        if (settings.Overrides.TryGetValue("enable.idempotence", out var idempotence) && idempotence.Equals("true", StringComparison.OrdinalIgnoreCase))
            warnings.Add($"-X {Name}:enable.idempotence=true: librdkafka runs without idempotence unless it is set for confluent too; --idempotence on sets it on every client.");
        return warnings;
    }

    /// <inheritdoc />
    /// <remarks>Defaults read from kafka-clients 4.3.1's ProducerConfig and librdkafka 2.16's CONFIGURATION.md; the effective
    /// values of both are in every result (the clients' configurations).</remarks>
    public IReadOnlyList<string> FailoverWarnings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var differences = new List<string>();
        void Differs(string javaKey, string what) { if (!settings.Overrides.ContainsKey(javaKey)) differences.Add(what); }
        Differs("delivery.timeout.ms", "a record's delivery timeout 120 s against 300 s (delivery.timeout.ms; librdkafka's message.timeout.ms)");
        Differs("reconnect.backoff.max.ms", "the longest reconnect backoff 1 s against 10 s (reconnect.backoff.max.ms; 50 ms against 100 ms at first)");
        Differs("socket.connection.setup.timeout.ms", "a connection's set-up timeout 10 s growing to 30 s against 30 s (socket.connection.setup.timeout.ms)");
        Differs("request.timeout.ms", "how long a request may go unanswered: 30 s in both (request.timeout.ms), and librdkafka's socket.timeout.ms of 60 s besides");
        if (differences.Count == 0) return [];
        return [$"The clients' failover settings differ by default, the Java client's against librdkafka's: {string.Join("; ", differences)}. Each result keeps the effective values; set them with -X CLIENT:KEY=VALUE to compare like with like (docs/failover.md)."];
    }

    /// <inheritdoc />
    /// <exception cref="PrerequisiteException">The JVM cannot start, or no broker answered within the timeout.</exception>
    public IBenchClient Create(KafkaEndpoint endpoint) => new JavaClient(JavaRuntime.Get(_options), endpoint, _options, _style);
}
