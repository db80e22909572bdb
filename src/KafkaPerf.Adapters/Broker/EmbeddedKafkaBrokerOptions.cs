using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>How the embedded broker starts. Every property has a working default.</summary>
public sealed record EmbeddedKafkaBrokerOptions
{
    /// <summary>Default heap: 1 GB, as Kafka's own start script.</summary>
    public const int DefaultHeapMegabytes = 1024;

    /// <summary>The smallest heap accepted: with 128 MB Kafka 4.3 ran out of memory while starting, 192 MB started.</summary>
    public const int MinimumHeapMegabytes = 256;

    /// <summary>The most nodes a cluster may have: each is a JVM with its own heap, and 2 cores already run 3 slowly.</summary>
    public const int MaxBrokers = 9;

    /// <summary>How many nodes (broker JVMs): 1, a combined broker and controller, by default; a cluster's first three are
    /// combined brokers and controllers, the others brokers only.</summary>
    public int Brokers { get; init; } = 1;

    /// <summary>The client listener's protocol, SASL mechanism and the one user it knows (plain TCP by default). With TLS
    /// the cluster makes its own certificate (see <see cref="EmbeddedKafkaBroker.Security"/> for the CA file clients trust);
    /// a CA file given here is ignored.</summary>
    public KafkaSecurity Security { get; init; } = KafkaSecurity.Plaintext;

    /// <summary>Java heap of each broker JVM, in megabytes (both <c>-Xms</c> and <c>-Xmx</c>, so it never resizes mid-run).</summary>
    public int HeapMegabytes { get; init; } = DefaultHeapMegabytes;

    /// <summary>How long the broker may take to answer an admin request before the start fails (default 60 s).</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>An unpacked Kafka distribution to run from; <c>KAFKAPERF_KAFKA_HOME</c> or the fetched jars when <see langword="null"/>.</summary>
    public string? KafkaHome { get; init; }

    /// <summary>A Java installation; <c>JAVA_HOME</c>, then <c>PATH</c>, when <see langword="null"/>.</summary>
    public string? JavaHome { get; init; }

    /// <summary>Broker settings added to (or replacing) KafkaPerf's <c>server.properties</c>.</summary>
    public IReadOnlyDictionary<string, string> ExtraConfig { get; init; } = new Dictionary<string, string>();

    /// <summary>Whether a shaping proxy stands in front of each node's client and inter-broker listeners, which the nodes
    /// advertise in place of their own (<c>--network</c>): every client connection, and every replica fetch between
    /// nodes, goes through one, and <see cref="EmbeddedKafkaBroker.Network"/> shapes them. Off: clients reach the nodes
    /// directly on loopback.</summary>
    public bool ShapedNetwork { get; init; }

    /// <summary>Whether the first start on this machine (for this Java and these jars) writes the class archive that
    /// makes later starts faster: its first node then takes about 4 s longer to stop, once. The <c>broker</c> command,
    /// stopped by Ctrl+C within a few seconds, leaves it to the next <c>run</c>.</summary>
    public bool WriteClassArchive { get; init; } = true;

    /// <summary>Where data folders are created; a <c>kafkaperf-brokers-USER</c> folder in the temporary folder when <see langword="null"/>.</summary>
    public string? DataRoot { get; init; }

    /// <summary>Where a copy of the broker's log goes when the broker exits by itself (killed, crashed) before it is
    /// disposed - its data folder, log included, goes on dispose; a <c>kafkaperf-broker-PID.log</c> in the temporary folder
    /// when <see langword="null"/>. The CLI puts it beside the results.</summary>
    public string? CrashLogPath { get; init; }

    /// <summary>Picks a node's client and controller ports, once per node; free loopback ports when <see langword="null"/>.
    /// Tests use it to hand out a port that is taken.</summary>
    internal Func<(int Port, int ControllerPort)>? PortPicker { get; init; }

    /// <summary>Checks the options.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is outside its range.</exception>
    public void Validate()
    {
        if (Brokers < 1 || Brokers > MaxBrokers)
            throw new ArgumentOutOfRangeException(nameof(Brokers), Brokers, $"The embedded cluster has 1 to {MaxBrokers} brokers.");
        if (HeapMegabytes < MinimumHeapMegabytes)
            throw new ArgumentOutOfRangeException(nameof(HeapMegabytes), HeapMegabytes, $"The broker heap must be at least {MinimumHeapMegabytes} MB.");
        if (Security.UsesSasl && !Security.Username!.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-'))
            throw new ArgumentException($"The embedded cluster's SASL user name '{Security.Username}' may hold only letters, digits, '.', '_' and '-'.", nameof(Security));
        if (Security.UsesSasl && Security.RevealPassword()!.Any(c => c is '"' or '\\' or ',' or ']' || char.IsControl(c)))
            throw new ArgumentException("The embedded cluster's SASL password may not hold quotes, backslashes, commas, ']' or control characters.", nameof(Security));
        if (StartTimeout <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(StartTimeout), StartTimeout, "The start timeout must be positive.");
    }
}
