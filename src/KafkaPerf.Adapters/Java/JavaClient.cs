using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Adapters.Java;

/// <summary>
/// <c>java</c> and <c>java-batched</c>: the Apache Kafka Java client in this process's JVM. One Java admin client per
/// plan creates and deletes the runs' topics; producers and consumers are plain <c>KafkaProducer</c> and
/// <c>KafkaConsumer</c> driven through KafkaPerf's Java helper.
/// </summary>
internal sealed class JavaClient : IBenchClient, IRuntimeProbe
{
    private const string TopicExists = "org.apache.kafka.common.errors.TopicExistsException";
    private static readonly TimeSpan AdminCloseTimeout = TimeSpan.FromMilliseconds(500);

    private readonly JavaRuntime _runtime;
    private readonly string _bootstrap;
    private readonly JavaClientOptions _options;
    private readonly JavaStyle _style;
    private readonly KafkaSecurity _security;
    private readonly IntPtr _admin;
    private bool _disposed;

    public JavaClient(JavaRuntime runtime, KafkaEndpoint endpoint, JavaClientOptions options, JavaStyle style)
    {
        _runtime = runtime;
        _options = options;
        _style = style;
        _bootstrap = endpoint.BootstrapServers
            ?? throw new ArgumentException("The Java clients need bootstrap servers.", nameof(endpoint));
        _security = endpoint.Security;
        // Admin requests (topics created and deleted) answer within the plan's stall timeout or fail.
        var timeout = endpoint.StallTimeout < options.Timeout ? endpoint.StallTimeout : options.Timeout;
        using (var thread = runtime.Host.AttachCurrentThread("kafkaperf-java-admin"))
        {
            var env = thread.Env;
            var bootstrap = env.NewString(_bootstrap);
            // Secrets cross into the JVM in memory only, as one "key=value" line per setting.
            var security = env.NewString(string.Concat(JavaSettings.Security(_security).Select(p => $"{p.Key}={p.Value}\n")));
            try
            {
                var local = env.NewObject(runtime.AdminClass, runtime.AdminInit,
                    [JValue.Ref(bootstrap), JValue.Of((int)timeout.TotalMilliseconds), JValue.Ref(security)]);
                _admin = env.NewGlobalRef(local);
                env.DeleteLocalRef(local);
            }
            catch (JavaException ex) when (ex.JavaClass.EndsWith("SaslAuthenticationException", StringComparison.Ordinal))
            {
                throw new PrerequisiteException(
                    $"The Kafka cluster at '{_bootstrap}' refused the {_security.MechanismName} login of user '{_security.Username}' ({ex.JavaMessage}): "
                    + "check the credentials (--sasl-credentials FILE, or KAFKAPERF_SASL_USERNAME and KAFKAPERF_SASL_PASSWORD) and --sasl-mechanism.", ex);
            }
            catch (JavaException ex) when (ex.JavaClass.EndsWith("SslAuthenticationException", StringComparison.Ordinal))
            {
                throw new PrerequisiteException(
                    $"The TLS handshake of the Java client with '{_bootstrap}' failed ({ex.JavaMessage}): check --ssl-ca (PEM) and --security.", ex);
            }
            catch (JavaException ex)
            {
                throw new PrerequisiteException(
                    $"No Kafka broker answered the Java client at '{_bootstrap}' within {timeout.TotalSeconds:0.#} s ({ex.JavaMessage ?? ex.JavaClass}): check --bootstrap, or leave it out to use the embedded broker.", ex);
            }
            finally
            {
                env.DeleteLocalRef(bootstrap);
                env.DeleteLocalRef(security);
            }
        }
        var host = runtime.Host;
        Details = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["kafka-clients"] = runtime.ClientVersion,
            ["jvm"] = $"{host.VmName} (Java {host.JavaVersion}), in-process through JNI{JvmOptionsVariable.Describe(JvmOptionsVariable.Read(JvmOptionsVariable.InProcess))}, created in {host.StartupTime.TotalMilliseconds:0} ms",
            ["libjvm"] = host.LibraryPath,
            ["jvm.options"] = string.Join(' ', host.Options.ToJvmArguments().Where(o => !o.StartsWith("-Djava.class.path=", StringComparison.Ordinal))),
            ["jars"] = $"{runtime.Jars.LibsDirectory} ({runtime.Jars.Origin})",
            ["path"] = style switch
            {
                JavaStyle.Batched => $"records packed into native memory, one JNI call per batch of up to {options.BatchRecords} records or {options.BatchBytes} bytes; one callback per acknowledgement",
                JavaStyle.Records => "bridge style: per record Long.valueOf, a new byte[], new ProducerRecord, a new callback object and KafkaProducer.send (4 JNI calls); consumed records iterated from .NET (hasNext, next, key, value, offset: 5 JNI calls per record); one callback per acknowledgement",
                _ => "one JNI call per record (send(long, byte[]), the value copied into a new Java array); one callback per acknowledgement",
            },
        };
        Warnings = [.. JvmHost.Messages.Select(m => $"The JVM said: {m.Trim()}")];
    }

    public string Name => JavaClientFactory.NameOf(_style);

    public string LibraryVersion => $"Apache Kafka client {_runtime.ClientVersion} (Java {_runtime.Host.JavaVersion}, in-process)";

    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency | ClientCapabilities.Prefetch | ClientCapabilities.Workloads | ClientCapabilities.Transactions | ClientCapabilities.ShareGroups | ClientCapabilities.GroupMembership;

    public IReadOnlyDictionary<string, string> Details { get; }

    public IReadOnlyList<string> Warnings { get; }

    public IReadOnlyList<KeyValuePair<string, long>> ReadCounters() =>
        [new("jni.calls", JniCounters.Calls), new("jni.callbacks", JniCounters.Callbacks)];

    /// <summary>The JVM's collections and heap, through its management beans (three JNI calls: never inside a timed section).</summary>
    public RuntimeReading ReadRuntime()
    {
        using var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-stats");
        var env = thread.Env;
        var reading = new RuntimeReading(
            GcCount: env.CallStaticLong(_runtime.StatsClass, _runtime.StatsGcCount, []),
            GcMillis: env.CallStaticLong(_runtime.StatsClass, _runtime.StatsGcMillis, []),
            HeapUsedBytes: env.CallStaticLong(_runtime.StatsClass, _runtime.StatsHeapUsed, []));
        // The harness's calls, not the client's: read each interval while records are timed, they must not count.
        JniCounters.Discount(3);
        return reading;
    }

    /// <summary>Asks the in-process JVM for a full collection (tests: a collection that must show in the series).</summary>
    internal void CollectGarbage()
    {
        using var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-gc");
        thread.Env.CallStaticVoid(_runtime.StatsClass, _runtime.StatsCollect, []);
    }

    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(sink);
        return new JavaProducer(_runtime, spec, sink, _bootstrap, _security, _options, _style);
    }

    public IBenchConsumer CreateConsumer(ConsumerSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        return new JavaConsumer(_runtime, spec, _bootstrap, _security, _options.ConsumerBufferBytes, records: _style == JavaStyle.Records);
    }

    public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(topic);
        return new ValueTask(OnOwnThread(() =>
        {
            try
            {
                // The topic's settings travel as one "key=value\n…" string: one argument instead of a Java map built through JNI.
                var configs = string.Concat(topic.Configs.Select(c => $"{c.Key}={c.Value}\n"));
                OnAdminThread((env, name) =>
                {
                    var text = env.NewString(configs);
                    try
                    {
                        env.CallVoid(_admin, _runtime.AdminCreate, [JValue.Ref(name), JValue.Of(topic.Partitions), JValue.Of(topic.ReplicationFactor), JValue.Ref(text)]);
                    }
                    finally
                    {
                        env.DeleteLocalRef(text);
                    }
                }, topic.Name, cancellationToken);
            }
            catch (JavaException ex) when (ex.Is(TopicExists))
            {
                throw new TopicExistsException(topic.Name, ex);
            }
        }, cancellationToken));
    }

    public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) =>
        new(OnOwnThread(() => OnAdminThread((env, name) => env.CallVoid(_admin, _runtime.AdminDelete, [JValue.Ref(name)]), topic, cancellationToken), cancellationToken));

    /// <summary>A topic call on a thread of its own: it blocks in Java until the cluster shows the topic (or its absence),
    /// tens of milliseconds, and a pool thread blocked so would hold up everything else on a two-core machine's pool of two
    /// (the runner creates a cell's topics together).</summary>
    private static Task OnOwnThread(Action call, CancellationToken cancellationToken) =>
        Task.Factory.StartNew(call, cancellationToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    public ValueTask DisposeAsync()
    {
        if (_disposed) return ValueTask.CompletedTask;
        _disposed = true;
        using var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-admin");
        try
        {
            // Requests still in flight (a deletion on a cluster that went away) are given up at once: at the end of a plan
            // there are none unless the cluster stopped answering.
            thread.Env.CallVoid(_admin, _runtime.AdminClose, [JValue.Of((long)AdminCloseTimeout.TotalMilliseconds)]);
        }
        catch (JavaException)
        {
            // The broker may be gone; the reference goes either way.
        }
        thread.Env.DeleteGlobalRef(_admin);
        return ValueTask.CompletedTask;
    }

    /// <summary>An admin call that a cancellation interrupts (Kafka's admin futures wait up to the client's timeout).</summary>
    private void OnAdminThread(Action<JniEnv, IntPtr> call, string topic, CancellationToken cancellationToken)
    {
        using var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-admin");
        var env = thread.Env;
        var name = env.NewString(topic);
        try
        {
            using var interrupt = _runtime.InterruptOn(env, cancellationToken);
            call(env, name);
        }
        catch (JavaException ex) when (cancellationToken.IsCancellationRequested)
        {
            throw new OperationCanceledException($"The request about topic '{topic}' was cancelled.", ex, cancellationToken);
        }
        finally
        {
            env.DeleteLocalRef(name);
        }
    }
}
