using KafkaPerf.Adapters.Broker;
using KafkaPerf.Clients;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using Xunit;

namespace KafkaPerf.Testing;

/// <summary>
/// A Kafka broker for a test collection or class (xUnit v3 <c>ICollectionFixture</c> or <c>IClassFixture</c>): KafkaPerf's
/// embedded broker, started once, or the existing cluster named by <c>KAFKAPERF_BOOTSTRAP</c>.
/// </summary>
/// <remarks>Starting the broker and every run honour the test context's cancellation (the runner's timeout, an
/// aborted test run), so a cancelled test run does not wait for a benchmark to end.</remarks>
public class KafkaBrokerFixture : IAsyncLifetime
{
    /// <summary>The variable naming an existing cluster (<c>host:port,…</c>) to use instead of the embedded broker.</summary>
    public const string BootstrapVariable = "KAFKAPERF_BOOTSTRAP";

    private EmbeddedKafkaBroker? _broker;

    /// <summary>Where clients connect; set once the fixture has started.</summary>
    public ClientConnection Connection { get; private set; } = ClientConnection.None;

    /// <summary>The broker options of the embedded broker (a 512 MB heap by default).</summary>
    protected virtual EmbeddedKafkaBrokerOptions BrokerOptions => new() { HeapMegabytes = 512 };

    /// <inheritdoc />
    public virtual async ValueTask InitializeAsync()
    {
        var bootstrap = Environment.GetEnvironmentVariable(BootstrapVariable);
        if (!string.IsNullOrWhiteSpace(bootstrap))
        {
            Connection = new ClientConnection(bootstrap) { BrokerDescription = $"external ({BootstrapVariable})" };
            return;
        }
        _broker = await EmbeddedKafkaBroker.StartAsync(BrokerOptions, TestContext.Current.CancellationToken);
        Connection = new ClientConnection(_broker.BootstrapServers, _broker.KafkaVersion) { BrokerDescription = "embedded", BrokerProbe = _broker.Probe };
    }

    /// <summary>Runs a plan with these clients against the fixture's broker.</summary>
    /// <param name="plan">The plan (e.g. from <see cref="BenchmarkPlanBuilder"/>).</param>
    /// <param name="clients">The clients the plan names.</param>
    /// <param name="cancellationToken">Stops the runs; the test context's token when omitted.</param>
    /// <returns>The result, for <see cref="PerformanceAssert"/>.</returns>
    public Task<BenchmarkResult> RunAsync(BenchmarkPlan plan, IEnumerable<IBenchClientFactory> clients, CancellationToken cancellationToken = default) =>
        new BenchmarkRunner(new ClientRegistry(clients), Connection)
            .RunAsync(plan, cancellationToken: cancellationToken.CanBeCanceled ? cancellationToken : TestContext.Current.CancellationToken).AsTask();

    /// <inheritdoc />
    public virtual async ValueTask DisposeAsync()
    {
        if (_broker is not null) await _broker.DisposeAsync();
        GC.SuppressFinalize(this);
    }
}
