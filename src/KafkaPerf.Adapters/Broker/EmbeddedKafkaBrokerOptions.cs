namespace KafkaPerf.Adapters.Broker;

/// <summary>How the embedded broker starts. Every property has a working default.</summary>
public sealed record EmbeddedKafkaBrokerOptions
{
    /// <summary>Default heap: 1 GB, as Kafka's own start script.</summary>
    public const int DefaultHeapMegabytes = 1024;

    /// <summary>The smallest heap accepted: with 128 MB Kafka 4.3 ran out of memory while starting, 192 MB started.</summary>
    public const int MinimumHeapMegabytes = 256;

    /// <summary>Java heap of the broker JVM, in megabytes (both <c>-Xms</c> and <c>-Xmx</c>, so it never resizes mid-run).</summary>
    public int HeapMegabytes { get; init; } = DefaultHeapMegabytes;

    /// <summary>How long the broker may take to answer an admin request before the start fails (default 60 s).</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>An unpacked Kafka distribution to run from; <c>KAFKAPERF_KAFKA_HOME</c> or the fetched jars when <see langword="null"/>.</summary>
    public string? KafkaHome { get; init; }

    /// <summary>A Java installation; <c>JAVA_HOME</c>, then <c>PATH</c>, when <see langword="null"/>.</summary>
    public string? JavaHome { get; init; }

    /// <summary>Broker settings added to (or replacing) KafkaPerf's <c>server.properties</c>.</summary>
    public IReadOnlyDictionary<string, string> ExtraConfig { get; init; } = new Dictionary<string, string>();

    /// <summary>Where data folders are created; a <c>kafkaperf-brokers-USER</c> folder in the temporary folder when <see langword="null"/>.</summary>
    public string? DataRoot { get; init; }

    /// <summary>Where a copy of the broker's log goes when the broker exits by itself (killed, crashed) before it is
    /// disposed - its data folder, log included, goes on dispose; a <c>kafkaperf-broker-PID.log</c> in the temporary folder
    /// when <see langword="null"/>. The CLI puts it beside the results.</summary>
    public string? CrashLogPath { get; init; }

    /// <summary>Picks the broker and controller ports; free loopback ports when <see langword="null"/>. Tests use it to
    /// hand out a port that is taken.</summary>
    internal Func<(int Port, int ControllerPort)>? PortPicker { get; init; }

    /// <summary>Checks the options.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is outside its range.</exception>
    public void Validate()
    {
        if (HeapMegabytes < MinimumHeapMegabytes)
            throw new ArgumentOutOfRangeException(nameof(HeapMegabytes), HeapMegabytes, $"The broker heap must be at least {MinimumHeapMegabytes} MB.");
        if (StartTimeout <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(StartTimeout), StartTimeout, "The start timeout must be positive.");
    }
}
