using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Java;

/// <summary>
/// The Java helper classes (<c>kafkaperf.client.*</c>, compiled into KafkaPerf's jar) in the process's JVM: global
/// references to the classes, their method IDs, and the <c>native</c> callbacks registered once.
/// </summary>
internal sealed unsafe class JavaRuntime
{
    private static readonly Lock s_lock = new();
    private static JavaRuntime? s_instance;
    private static IntPtr s_runtimeExceptionClass;

    private JavaRuntime(JvmHost host, KafkaJars jars)
    {
        Host = host;
        Jars = jars;
        using var thread = host.AttachCurrentThread("kafkaperf-java-setup");
        var env = thread.Env;
        StringClass = env.FindClassGlobal("java/lang/String");
        s_runtimeExceptionClass = env.FindClassGlobal("java/lang/RuntimeException");

        var native = env.FindClassGlobal("kafkaperf/client/Native");
        env.RegisterNatives(native,
        [
            ("delivered", "(JJIJ)V", (IntPtr)(delegate* unmanaged<IntPtr, IntPtr, long, long, int, long, void>)&OnDelivered),
            ("failed", "(JJLjava/lang/String;)V", (IntPtr)(delegate* unmanaged<IntPtr, IntPtr, long, long, IntPtr, void>)&OnFailed),
            ("assigned", "(J)V", (IntPtr)(delegate* unmanaged<IntPtr, IntPtr, long, void>)&OnAssigned),
            ("rebalanced", "(JILjava/lang/String;)V", (IntPtr)(delegate* unmanaged<IntPtr, IntPtr, long, int, IntPtr, void>)&OnRebalanced),
        ]);
        env.DeleteGlobalRef(native);

        SettingsClass = env.FindClassGlobal("kafkaperf/client/Settings");
        ClientVersion = CallStaticString(env, SettingsClass, "clientVersion", "()Ljava/lang/String;") ?? "unknown";
        EffectiveProducer = env.GetStaticMethodId(SettingsClass, "effectiveProducer", "([Ljava/lang/String;)[Ljava/lang/String;");
        EffectiveConsumer = env.GetStaticMethodId(SettingsClass, "effectiveConsumer", "([Ljava/lang/String;)[Ljava/lang/String;");
        Check = env.GetStaticMethodId(SettingsClass, "check", "([Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/String;");

        ProducerClass = env.FindClassGlobal("kafkaperf/client/BenchProducer");
        ProducerInit = env.GetMethodId(ProducerClass, "<init>", "([Ljava/lang/String;Ljava/lang/String;JI)V");
        ProducerSend = env.GetMethodId(ProducerClass, "send", "(J[B)V");
        ProducerSendPacked = env.GetMethodId(ProducerClass, "sendPacked", "(Ljava/nio/ByteBuffer;I)V");
        ProducerWorkload = env.GetMethodId(ProducerClass, "workload", "(III[BII)V");
        ProducerBeginTransaction = env.GetMethodId(ProducerClass, "beginTransaction", "()V");
        ProducerCommitTransaction = env.GetMethodId(ProducerClass, "commitTransaction", "()V");
        ProducerAbortTransaction = env.GetMethodId(ProducerClass, "abortTransaction", "()V");
        ProducerFlush = env.GetMethodId(ProducerClass, "flush", "()V");
        ProducerClose = env.GetMethodId(ProducerClass, "close", "(J)V");

        ConsumerClass = env.FindClassGlobal("kafkaperf/client/BenchConsumer");
        ConsumerInit = env.GetMethodId(ConsumerClass, "<init>", "([Ljava/lang/String;Ljava/lang/String;JZI)V");
        ConsumerSetBuffer = env.GetMethodId(ConsumerClass, "setBuffer", "(Ljava/nio/ByteBuffer;)V");
        ConsumerStart = env.GetMethodId(ConsumerClass, "start", "()V");
        ConsumerPoll = env.GetMethodId(ConsumerClass, "poll", "(I)I");
        ConsumerClose = env.GetMethodId(ConsumerClass, "close", "(J)V");
        ConsumerWakeup = env.GetMethodId(ConsumerClass, "wakeup", "()V");
        ConsumerAbandon = env.GetMethodId(ConsumerClass, "abandon", "()V");

        Bridge = new BridgeMethods(env);

        StatsClass = env.FindClassGlobal("kafkaperf/client/JvmStats");
        StatsGcCount = env.GetStaticMethodId(StatsClass, "gcCount", "()J");
        StatsGcMillis = env.GetStaticMethodId(StatsClass, "gcMillis", "()J");
        StatsHeapUsed = env.GetStaticMethodId(StatsClass, "heapUsed", "()J");
        StatsProducerMetric = env.GetStaticMethodId(StatsClass, "producerMetric", "(Lkafkaperf/client/BenchProducer;I)J");
        StatsConsumerMetric = env.GetStaticMethodId(StatsClass, "consumerMetric", "(Lkafkaperf/client/BenchConsumer;I)J");
        StatsCollect = env.GetStaticMethodId(StatsClass, "collect", "()V");

        AdminClass = env.FindClassGlobal("kafkaperf/client/BenchAdmin");
        AdminInit = env.GetMethodId(AdminClass, "<init>", "(Ljava/lang/String;ILjava/lang/String;)V");
        AdminCreate = env.GetMethodId(AdminClass, "createTopic", "(Ljava/lang/String;ISLjava/lang/String;)V");
        AdminDelete = env.GetMethodId(AdminClass, "deleteTopic", "(Ljava/lang/String;)V");
        AdminClose = env.GetMethodId(AdminClass, "close", "(J)V");

        ThreadClass = env.FindClassGlobal("java/lang/Thread");
        ThreadCurrent = env.GetStaticMethodId(ThreadClass, "currentThread", "()Ljava/lang/Thread;");
        ThreadInterrupt = env.GetMethodId(ThreadClass, "interrupt", "()V");
        ThreadClearInterrupt = env.GetStaticMethodId(ThreadClass, "interrupted", "()Z");
    }

    public JvmHost Host { get; }

    public KafkaJars Jars { get; }

    public string ClientVersion { get; }

    public IntPtr StringClass { get; }

    public IntPtr SettingsClass { get; }

    public IntPtr EffectiveProducer { get; }

    public IntPtr EffectiveConsumer { get; }

    public IntPtr Check { get; }

    /// <summary>Kafka's own classes and methods that <c>java-records</c> calls record by record, as a bridge does.</summary>
    public BridgeMethods Bridge { get; }

    public IntPtr ProducerClass { get; }

    public IntPtr ProducerInit { get; }

    public IntPtr ProducerSend { get; }

    public IntPtr ProducerSendPacked { get; }

    /// <summary><c>BenchProducer.workload(int, int, int, byte[], int, int)</c>: keys and headers, before the first record.</summary>
    public IntPtr ProducerWorkload { get; }

    /// <summary><c>BenchProducer.beginTransaction()</c>.</summary>
    public IntPtr ProducerBeginTransaction { get; }

    /// <summary><c>BenchProducer.commitTransaction()</c>.</summary>
    public IntPtr ProducerCommitTransaction { get; }

    /// <summary><c>BenchProducer.abortTransaction()</c>.</summary>
    public IntPtr ProducerAbortTransaction { get; }

    public IntPtr ProducerFlush { get; }

    public IntPtr ProducerClose { get; }

    public IntPtr ConsumerClass { get; }

    public IntPtr ConsumerInit { get; }

    public IntPtr ConsumerSetBuffer { get; }

    public IntPtr ConsumerStart { get; }

    public IntPtr ConsumerPoll { get; }

    public IntPtr ConsumerClose { get; }

    public IntPtr ConsumerWakeup { get; }

    /// <summary><c>BenchConsumer.abandon()</c>: closed without leaving the group, as a process that died.</summary>
    public IntPtr ConsumerAbandon { get; }

    public IntPtr StatsClass { get; }

    public IntPtr StatsGcCount { get; }

    public IntPtr StatsGcMillis { get; }

    public IntPtr StatsHeapUsed { get; }

    /// <summary><c>JvmStats.producerMetric(BenchProducer, int)</c>: one of a producer's own figures, as a double's bits.</summary>
    public IntPtr StatsProducerMetric { get; }

    /// <summary><c>JvmStats.consumerMetric(BenchConsumer, int)</c>.</summary>
    public IntPtr StatsConsumerMetric { get; }

    /// <summary><c>JvmStats.collect()</c>: a full collection (tests).</summary>
    public IntPtr StatsCollect { get; }

    public IntPtr AdminClass { get; }

    public IntPtr AdminInit { get; }

    public IntPtr AdminCreate { get; }

    public IntPtr AdminDelete { get; }

    public IntPtr AdminClose { get; }

    public IntPtr ThreadClass { get; }

    public IntPtr ThreadCurrent { get; }

    public IntPtr ThreadInterrupt { get; }

    public IntPtr ThreadClearInterrupt { get; }

    /// <summary>Interrupts the calling thread's blocking Java call (a send waiting for buffer room or metadata, a flush,
    /// an admin request, a poll) when <paramref name="token"/> is cancelled, from whichever thread cancels it: Kafka's
    /// client then throws <c>InterruptException</c>. Dispose on the same thread, after the calls.</summary>
    /// <param name="env">The calling thread's environment.</param>
    /// <param name="token">The run's token or a stall watch's.</param>
    /// <returns>Disposing it stops listening and clears an interrupt that came too late.</returns>
    public JavaInterrupt InterruptOn(JniEnv env, CancellationToken token) => new(this, env, token);

    /// <summary>The runtime of this process, starting the JVM on first use.</summary>
    /// <exception cref="PrerequisiteException">Java, the jars or the environment variable are missing, or the JVM did not start.</exception>
    public static JavaRuntime Get(JavaClientOptions options)
    {
        lock (s_lock)
        {
            if (s_instance is { } existing) return existing;
            var jars = KafkaJars.Locate(options.KafkaHome);
            if (!File.Exists(KafkaJars.ProjectJar))
                throw new PrerequisiteException($"KafkaPerf's Java helper '{KafkaJars.ProjectJar}' is missing: rebuild the project with a JDK (javac) on PATH.");
            var classPath = Directory.EnumerateFiles(jars.LibsDirectory, "*.jar").Order(StringComparer.Ordinal)
                .Append(KafkaJars.ProjectJar).Concat(options.ExtraClassPath).ToList();
            var host = JvmHost.Create(new JvmOptions
            {
                HeapMegabytes = options.HeapMegabytes,
                ClassPath = classPath,
                // The client's log4j2 binding would print to the console; its warnings reach the caller as exceptions instead.
                ExtraOptions = ["-Dlog4j2.level=OFF", "-Dorg.apache.logging.log4j.level=OFF", "-Dlog4j2.statusLoggerLevel=OFF", .. options.JvmOptions,
                    .. JvmOptionsVariable.Read(JvmOptionsVariable.InProcess)],
                JavaHome = options.JavaHome,
            });
            try
            {
                s_instance = new JavaRuntime(host, jars);
            }
            catch (JavaException ex)
            {
                throw new PrerequisiteException($"KafkaPerf's Java helper did not load in the JVM ({ex.Message}): rebuild the project.", ex);
            }
            return s_instance;
        }
    }

    /// <summary>Effective settings as Java computes them (defaults included).</summary>
    /// <summary>A client's own metrics through one of <c>JvmStats</c>' static readers (<paramref name="reader"/>(client,
    /// index) → a double's bits, NaN for none), on the calling thread (the interval sampler's): <paramref name="count"/>
    /// calls into Java, taken back from <c>jni.calls</c>.</summary>
    /// <param name="client">The Java producer or consumer.</param>
    /// <param name="reader">The static method.</param>
    /// <param name="count">How many metrics, from index 0.</param>
    /// <returns>Each metric; <see langword="null"/> where the client has none yet.</returns>
    public double?[] ReadMetrics(IntPtr client, IntPtr reader, int count)
    {
        using var thread = Host.AttachCurrentThread("kafkaperf-java-stats");
        var env = thread.Env;
        var values = new double?[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                double value = BitConverter.Int64BitsToDouble(env.CallStaticLong(StatsClass, reader, [JValue.Ref(client), JValue.Of(i)]));
                values[i] = double.IsFinite(value) ? value : null;
            }
            return values;
        }
        finally
        {
            JniCounters.Discount(count);
        }
    }

    public static Dictionary<string, string> Effective(JniEnv env, IntPtr method, JavaRuntime runtime, string[] settings)
    {
        var array = env.NewStringArray(runtime.StringClass, settings);
        try
        {
            var result = env.CallStaticObject(runtime.SettingsClass, method, [JValue.Ref(array)]);
            var flat = env.GetStringArray(result);
            env.DeleteLocalRef(result);
            var config = new Dictionary<string, string>(StringComparer.Ordinal);
            for (int i = 0; i + 1 < flat.Length; i += 2) config[flat[i]!] = KafkaSecurity.IsSecret(flat[i]!) ? KafkaSecurity.Hidden : flat[i + 1] ?? "null";
            return config;
        }
        finally
        {
            env.DeleteLocalRef(array);
        }
    }

    private static string? CallStaticString(JniEnv env, IntPtr type, string name, string signature)
    {
        var method = env.GetStaticMethodId(type, name, signature);
        var result = env.CallStaticObject(type, method, []);
        var text = env.GetString(result);
        env.DeleteLocalRef(result);
        return text;
    }

    /// <summary>A handle for Java to call a sink back with; free it once Java can no longer call.</summary>
    public static long NewSinkHandle(object sink) => (long)GCHandle.ToIntPtr(GCHandle.Alloc(sink));

    public static void FreeSinkHandle(long handle)
    {
        if (handle != 0) GCHandle.FromIntPtr(new IntPtr(handle)).Free();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static T Sink<T>(long handle) where T : class => (T)GCHandle.FromIntPtr(new IntPtr(handle)).Target!;

    // Callbacks run on Kafka's own threads. Nothing may escape into Java: a .NET exception becomes a RuntimeException
    // there (which the producer's callback wrapper logs and the consumer's poll rethrows).
    [UnmanagedCallersOnly]
    private static void OnDelivered(IntPtr env, IntPtr type, long sink, long key, int partition, long offset)
    {
        JniCounters.CountCallback();
        try
        {
            Sink<IDeliverySink>(sink).OnDelivered(key, partition, offset);
        }
        catch (Exception ex)
        {
            ReportToJava(env, ex);
        }
    }

    [UnmanagedCallersOnly]
    private static void OnFailed(IntPtr env, IntPtr type, long sink, long key, IntPtr reason)
    {
        JniCounters.CountCallback();
        try
        {
            Sink<IDeliverySink>(sink).OnDeliveryFailed(key, JvmHost.FromCallback(env).GetString(reason) ?? "unknown");
        }
        catch (Exception ex)
        {
            ReportToJava(env, ex);
        }
    }

    [UnmanagedCallersOnly]
    private static void OnAssigned(IntPtr env, IntPtr type, long sink)
    {
        JniCounters.CountCallback();
        try
        {
            Sink<IRecordSink>(sink).OnAssigned();
        }
        catch (Exception ex)
        {
            ReportToJava(env, ex);
        }
    }

    [UnmanagedCallersOnly]
    private static void OnRebalanced(IntPtr env, IntPtr type, long sink, int kind, IntPtr partitions)
    {
        JniCounters.CountCallback();
        try
        {
            var text = JvmHost.FromCallback(env).GetString(partitions) ?? string.Empty;
            int[] numbers = text.Length == 0 ? [] : [.. text.Split(',').Select(p => int.Parse(p, System.Globalization.CultureInfo.InvariantCulture))];
            var target = Sink<IRecordSink>(sink);
            if (kind == 0) target.OnPartitionsAssigned(numbers);
            else target.OnPartitionsRevoked(numbers, lost: kind == 2);
        }
        catch (Exception ex)
        {
            ReportToJava(env, ex);
        }
    }

    private static void ReportToJava(IntPtr env, Exception ex)
    {
        try
        {
            JvmHost.FromCallback(env).ThrowNew(s_runtimeExceptionClass, $"{ex.GetType().Name}: {ex.Message}");
        }
        catch
        {
            // Nothing may escape into Java.
        }
    }
}
