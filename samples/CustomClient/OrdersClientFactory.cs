using KafkaPerf.Clients;

namespace CustomClient;

/// <summary>
/// The plugin's entry point: KafkaPerf finds every public <see cref="IBenchClientFactory"/> with a public parameterless
/// constructor in the plugin's assembly, and plans name the client by <see cref="Name"/>.
/// </summary>
public sealed class OrdersClientFactory : IBenchClientFactory
{
    public string Name => "orders-json";

    public string Description => "Orders as JSON (System.Text.Json, source-generated) through Confluent.Kafka: what an application's own code adds to the bare client";

    public string? DescribeLibrary() => $"Confluent.Kafka {OrdersClient.LibraryVersionOf()}";

    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency;

    public bool RequiresBroker => true;

    public IBenchClient Create(KafkaEndpoint endpoint) => new OrdersClient(endpoint);
}
