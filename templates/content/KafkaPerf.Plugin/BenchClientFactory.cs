using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerfPlugin;

/// <summary>
/// The plugin's entry point: KafkaPerf finds every public <see cref="IBenchClientFactory"/> with a public parameterless
/// constructor in the plugin's assembly, and a plan names the client by <see cref="Name"/>
/// (<c>dotnet kafkaperf run --plugin FOLDER --clients kafkaperfplugin,confluent</c>).
/// </summary>
public sealed class BenchClientFactory : IBenchClientFactory
{
    /// <summary>The client's name: letters, digits, '-', '_' and '.', and not a built-in client's name.</summary>
    public string Name => "kafkaperfplugin";

    public string Description => "Confluent.Kafka with long keys and byte[] values, as an application would call it";

    public string? DescribeLibrary() => $"Confluent.Kafka {BenchClient.ConfluentVersion}, librdkafka {Library.VersionString}";

    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency;

    public bool RequiresBroker => true;

    public IBenchClient Create(KafkaEndpoint endpoint) => new BenchClient(endpoint);
}
