
namespace KafkaPerf.Clients.InMemory;

/// <summary>Creates <see cref="InMemoryClient"/> instances.</summary>
/// <param name="options">The client's options.</param>
public sealed class InMemoryClientFactory(InMemoryClientOptions options) : IBenchClientFactory
{
    /// <inheritdoc />
    public string Name => options.Name;

    /// <inheritdoc />
    public string Description => "In-process queue, no Kafka: measures the harness's own overhead (self-test).";

    /// <inheritdoc />
    public bool RequiresBroker => false;

    /// <inheritdoc />
    public ClientCapabilities Capabilities =>
        (options.ReportsDeliveryLatency ? ClientCapabilities.DeliveryLatency : ClientCapabilities.None) | ClientCapabilities.Workloads;

    /// <inheritdoc />
    public string? DescribeLibrary() => $"KafkaPerf {ClientContract.Release} (no Kafka)";

    /// <inheritdoc />
    public IBenchClient Create(KafkaEndpoint endpoint) => new InMemoryClient(options);
}
