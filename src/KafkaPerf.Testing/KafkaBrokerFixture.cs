using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using Xunit;

namespace KafkaPerf.Testing;

/// <summary>
/// A Kafka broker for a test collection or class (xUnit v3 <c>ICollectionFixture</c> or <c>IClassFixture</c>), started
/// once: KafkaPerf's embedded broker by default, a broker in a container (<c>KAFKAPERF_BROKER=testcontainers[:IMAGE]</c>,
/// or override <see cref="Source"/>), or the existing cluster named by <c>KAFKAPERF_BOOTSTRAP</c>.
/// </summary>
/// <remarks>Starting the broker and every run honour the test context's cancellation (the runner's timeout, an
/// aborted test run), so a cancelled test run does not wait for a benchmark to end.</remarks>
public class KafkaBrokerFixture : IAsyncLifetime
{
    /// <summary>The variable naming an existing cluster (<c>host:port,…</c>) to use instead of starting a broker.</summary>
    public const string BootstrapVariable = "KAFKAPERF_BOOTSTRAP";

    /// <summary>The variable choosing the broker to start: <c>embedded</c> (the default), <c>testcontainers</c> or
    /// <c>testcontainers:IMAGE</c>.</summary>
    public const string BrokerVariable = "KAFKAPERF_BROKER";

    private IBrokerLease? _broker;

    /// <summary>Where clients connect; set once the fixture has started.</summary>
    public ClusterConnection Connection { get; private set; } = ClusterConnection.None;

    /// <summary>The broker options of the embedded broker (a 512 MB heap by default).</summary>
    protected virtual EmbeddedKafkaBrokerOptions BrokerOptions => new() { HeapMegabytes = 512 };

    /// <summary>Where the broker comes from: <c>KAFKAPERF_BOOTSTRAP</c>, else <c>KAFKAPERF_BROKER</c>, else the embedded
    /// broker with <see cref="BrokerOptions"/>. Override it to fix the choice in code, e.g.
    /// <c>BrokerSource.Container("apache/kafka:4.3.1")</c>.</summary>
    /// <exception cref="InvalidOperationException"><c>KAFKAPERF_BROKER</c> holds something else.</exception>
    protected virtual BrokerSource Source
    {
        get
        {
            if (Environment.GetEnvironmentVariable(BootstrapVariable) is { Length: > 0 } bootstrap) return BrokerSource.Cluster(bootstrap);
            if (Environment.GetEnvironmentVariable(BrokerVariable) is not { Length: > 0 } broker) return BrokerSource.Embedded(BrokerOptions);
            return BrokerSource.TryParse(broker, BrokerOptions, out var source)
                ? source
                : throw new InvalidOperationException($"{BrokerVariable} is '{broker}': use embedded, testcontainers or testcontainers:IMAGE.");
        }
    }

    /// <inheritdoc />
    public virtual async ValueTask InitializeAsync()
    {
        _broker = await Source.ConnectAsync(log: null, TestContext.Current.CancellationToken);
        Connection = _broker.Connection;
    }

    /// <summary>Runs a plan with these clients against the fixture's broker.</summary>
    /// <param name="plan">The plan (e.g. from <see cref="BenchmarkPlanBuilder"/>).</param>
    /// <param name="clients">The clients the plan names.</param>
    /// <param name="cancellationToken">Stops the runs; the test context's token when omitted.</param>
    /// <returns>The result, for <see cref="PerformanceAssert"/>.</returns>
    public Task<BenchmarkResult> RunAsync(BenchmarkPlan plan, IEnumerable<IBenchClientFactory> clients, CancellationToken cancellationToken = default) =>
        RunAsync(plan, clients, plugins: [], cancellationToken);

    /// <summary>Runs a plan with these clients and those of plugins (assemblies built against KafkaPerf.Core, or the
    /// folders they were published to) against the fixture's broker; a client version the plan names
    /// (<c>confluent@2.15.1</c>) is restored once from the NuGet sources.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="clients">The tool's own clients the plan names.</param>
    /// <param name="plugins">Plugins whose clients the plan names.</param>
    /// <param name="cancellationToken">Stops the runs; the test context's token when omitted.</param>
    /// <returns>The result, for <see cref="PerformanceAssert"/>.</returns>
    /// <exception cref="PluginException">A plugin or a client version cannot be used; one line.</exception>
    public async Task<BenchmarkResult> RunAsync(BenchmarkPlan plan, IEnumerable<IBenchClientFactory> clients, IEnumerable<string> plugins, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var token = cancellationToken.CanBeCanceled ? cancellationToken : TestContext.Current.CancellationToken;
        var registry = new ClientRegistry(clients);
        registry = registry.With(ClientPlugins.Load(plugins, registry.Names).Select(p => (p.Factory, p.Origin)));
        registry = await ClientVersions.AddToAsync(registry, plan.Clients, log: null, token);
        // The fixture's broker outlives the session: the session is given the connection, and stops nothing.
        await using var session = new BenchmarkSession(plan, registry, BrokerSources.Connected(Connection));
        return await session.RunAsync(cancellationToken: token);
    }

    /// <inheritdoc />
    public virtual async ValueTask DisposeAsync()
    {
        if (_broker is not null) await _broker.DisposeAsync();
        GC.SuppressFinalize(this);
    }
}
