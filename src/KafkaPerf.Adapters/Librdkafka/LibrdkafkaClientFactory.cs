using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>
/// Creates the <c>librdkafka</c> reference client: librdkafka's C API from .NET through function pointers
/// (<c>rd_kafka_produce</c> with a delivery-report callback, <c>rd_kafka_subscribe</c> and <c>rd_kafka_consumer_poll</c>),
/// on the same native file as <c>confluent</c>. It answers "what does Confluent.Kafka's managed layer cost?": it is a
/// reference to measure <c>confluent</c> against, not a client an application would use, and every result says so.
/// </summary>
/// <param name="options">Timeouts (connecting, topics, a producer's first metadata); defaults when omitted.</param>
public sealed class LibrdkafkaClientFactory(ConfluentClientOptions? options = null) : IBenchClientFactory
{
    /// <summary>The registration name.</summary>
    public const string ClientName = "librdkafka";

    /// <summary>What results record of the client beside its library (its <c>reference</c> detail).</summary>
    public const string ReferenceNote = "librdkafka's C API from .NET (P/Invoke), without Confluent.Kafka's producer and consumer; not a client to choose";

    internal const ClientCapabilities ClientCapabilities = KafkaPerf.Clients.ClientCapabilities.DeliveryLatency;

    private readonly ConfluentClientOptions _options = options ?? new ConfluentClientOptions();

    /// <inheritdoc />
    public string Name => ClientName;

    /// <inheritdoc />
    public string Description =>
        "reference: librdkafka's C API called from .NET (rd_kafka_produce, rd_kafka_consumer_poll), no Confluent.Kafka producer or consumer, on confluent's native file";

    /// <inheritdoc />
    public bool RequiresBroker => true;

    /// <inheritdoc />
    ClientCapabilities IBenchClientFactory.Capabilities => ClientCapabilities;

    /// <inheritdoc />
    public string? DescribeLibrary()
    {
        try
        {
            return ConfluentNativeLibrary.EnsureLoaded().Describe();
        }
        catch (PrerequisiteException)
        {
            return null;
        }
    }

    /// <inheritdoc />
    public string? CheckAvailability()
    {
        try
        {
            var binding = ConfluentNativeLibrary.EnsureLoaded();
            return LibrdkafkaApi.Missing(binding.Handle) is { } missing
                ? $"librdkafka {binding.Version} at '{binding.Path}' has no {missing}, which the {ClientName} client calls."
                : null;
        }
        catch (PrerequisiteException ex)
        {
            return ex.Message;
        }
    }

    /// <inheritdoc />
    public string? CheckSettings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var binding = ConfluentNativeLibrary.EnsureLoaded();
        const string Placeholder = "127.0.0.1:9092";
        return LibrdkafkaSettings.Refused(settings, ClientName)
            ?? LibrdkafkaConfigDump.Check(binding, LibrdkafkaSettings.Producer(Placeholder, settings))
            ?? LibrdkafkaConfigDump.Check(binding, LibrdkafkaSettings.Consumer(Placeholder, "check", settings));
    }

    /// <inheritdoc />
    /// <exception cref="PrerequisiteException">librdkafka is missing, or no broker answered within the connect timeout.</exception>
    public IBenchClient Create(KafkaEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return new LibrdkafkaClient(endpoint, ConfluentNativeLibrary.EnsureLoaded(), _options);
    }
}
