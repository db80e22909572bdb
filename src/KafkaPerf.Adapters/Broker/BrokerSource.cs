using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Adapters.Broker;

/// <summary>Where a plan's broker comes from: KafkaPerf's embedded broker (the default), a broker in a container
/// (Testcontainers), or an existing cluster.</summary>
public abstract record BrokerSource : IBrokerSource
{
    private protected BrokerSource()
    {
    }

    /// <inheritdoc />
    public virtual int? KnownBrokers => null;

    /// <inheritdoc />
    public virtual string? RefuseFault(FaultSpec fault) => null;

    /// <inheritdoc />
    public virtual string? RefusePlan(BenchmarkPlan plan) => null;

    /// <inheritdoc />
    public virtual bool ShapesNetwork => false;

    /// <inheritdoc />
    public async Task<IBrokerLease> ConnectAsync(TextWriter? log, CancellationToken cancellationToken) =>
        await ConnectedBroker.ConnectAsync(this, log, cancellationToken).ConfigureAwait(false);

    /// <summary>The embedded KRaft broker, started as a child JVM.</summary>
    /// <param name="options">Heap, Kafka distribution, Java; defaults when omitted.</param>
    /// <returns>The source.</returns>
    public static BrokerSource Embedded(EmbeddedKafkaBrokerOptions? options = null) => new EmbeddedBroker(options ?? new EmbeddedKafkaBrokerOptions());

    /// <summary>A broker in a container, started with Testcontainers.Kafka.</summary>
    /// <param name="image">The image; <see cref="ContainerKafkaBroker.DefaultImage"/> when omitted.</param>
    /// <returns>The source.</returns>
    public static BrokerSource Container(string? image = null) => new ContainerBroker(string.IsNullOrWhiteSpace(image) ? ContainerKafkaBroker.DefaultImage : image.Trim());

    /// <summary>An existing cluster.</summary>
    /// <param name="bootstrapServers"><c>host:port,…</c>.</param>
    /// <param name="security">How to reach its listener; plain TCP when omitted.</param>
    /// <returns>The source.</returns>
    public static BrokerSource Cluster(string bootstrapServers, KafkaSecurity? security = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(bootstrapServers);
        return new ExistingCluster(bootstrapServers) { Security = security ?? KafkaSecurity.Plaintext };
    }

    /// <summary>Reads the CLI's and <c>KAFKAPERF_BROKER</c>'s spelling: <c>embedded</c>, <c>testcontainers</c> or
    /// <c>testcontainers:IMAGE</c>.</summary>
    /// <param name="text">The text.</param>
    /// <param name="embedded">The embedded broker's options, for <c>embedded</c>.</param>
    /// <param name="source">The source, when the text is one of those.</param>
    /// <returns>Whether it was.</returns>
    public static bool TryParse(string text, EmbeddedKafkaBrokerOptions embedded, out BrokerSource source)
    {
        ArgumentNullException.ThrowIfNull(text);
        var value = text.Trim();
        source = null!;
        if (value.Equals("embedded", StringComparison.OrdinalIgnoreCase)) source = Embedded(embedded);
        else if (value.Equals("testcontainers", StringComparison.OrdinalIgnoreCase)) source = Container();
        else if (value.StartsWith("testcontainers:", StringComparison.OrdinalIgnoreCase) && value.Length > "testcontainers:".Length) source = Container(value["testcontainers:".Length..]);
        return source is not null;
    }

    /// <summary>The embedded broker.</summary>
    /// <param name="Options">Its options.</param>
    public sealed record EmbeddedBroker(EmbeddedKafkaBrokerOptions Options) : BrokerSource
    {
        /// <inheritdoc />
        public override int? KnownBrokers => Options.Brokers;

        /// <inheritdoc />
        public override string? RefuseFault(FaultSpec fault) => EmbeddedFaults.RefuseFor(Options.Brokers, fault);

        /// <inheritdoc />
        public override string? RefusePlan(BenchmarkPlan plan) => EmbeddedDisk.Shortfall(plan, Options);

        /// <inheritdoc />
        public override bool ShapesNetwork => Options.ShapedNetwork;
    }

    /// <summary>A broker in a container.</summary>
    /// <param name="Image">The image.</param>
    public sealed record ContainerBroker(string Image) : BrokerSource
    {
        /// <inheritdoc />
        public override int? KnownBrokers => 1;

        /// <inheritdoc />
        public override string? RefuseFault(FaultSpec fault) => ClusterFaults.RefuseFor(ClusterFaults.ContainerName, fault);
    }

    /// <summary>An existing cluster.</summary>
    /// <param name="BootstrapServers"><c>host:port,…</c>.</param>
    public sealed record ExistingCluster(string BootstrapServers) : BrokerSource
    {
        /// <summary>How to reach its listener.</summary>
        public KafkaSecurity Security { get; init; } = KafkaSecurity.Plaintext;

        /// <inheritdoc />
        public override string? RefuseFault(FaultSpec fault) => ClusterFaults.RefuseFor(ClusterFaults.BootstrapName, fault);
    }
}
