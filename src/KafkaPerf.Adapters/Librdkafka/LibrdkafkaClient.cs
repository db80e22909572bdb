using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>
/// The <c>librdkafka</c> reference client: librdkafka's C API called from .NET directly, on the native file
/// <c>confluent</c> loads, without Confluent.Kafka's producer and consumer. Topics are created and deleted through a
/// <c>confluent</c> admin client, as the reference tools' are: only producing and consuming are the reference's own.
/// </summary>
internal sealed class LibrdkafkaClient : IBenchClient
{
    private readonly ConfluentClient _topics;
    private readonly string _bootstrap;
    private readonly KafkaSecurity _security;
    private readonly LibrdkafkaBinding _binding;
    private readonly LibrdkafkaApi _api;
    private readonly ConfluentClientOptions _options;

    public LibrdkafkaClient(KafkaEndpoint endpoint, LibrdkafkaBinding binding, ConfluentClientOptions options)
    {
        _bootstrap = endpoint.BootstrapServers
            ?? throw new ArgumentException("The librdkafka client needs bootstrap servers.", nameof(endpoint));
        _security = endpoint.Security;
        _binding = binding;
        _options = options;
        _api = new LibrdkafkaApi(binding.Handle);
        _topics = new ConfluentClient(endpoint, binding, options, name: LibrdkafkaClientFactory.ClientName);
        var details = new Dictionary<string, string>(StringComparer.Ordinal) { ["reference"] = LibrdkafkaClientFactory.ReferenceNote };
        foreach (var (key, value) in binding.DetailEntries()) details[key] = value;
        Details = details;
        Warnings = binding.Warning is { } warning ? [warning] : [];
    }

    public string Name => LibrdkafkaClientFactory.ClientName;

    public string LibraryVersion => $"librdkafka {_binding.Version} (P/Invoke, no Confluent.Kafka producer or consumer)";

    public ClientCapabilities Capabilities => LibrdkafkaClientFactory.ClientCapabilities;

    public IReadOnlyDictionary<string, string> Details { get; }

    public IReadOnlyList<string> Warnings { get; }

    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(sink);
        return new LibrdkafkaProducer(spec, sink, _bootstrap, _security, _binding, _api, _options.MetadataTimeout);
    }

    public IBenchConsumer CreateConsumer(ConsumerSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        return new LibrdkafkaConsumer(spec, _bootstrap, _security, _binding, _api);
    }

    public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken) => _topics.CreateTopicAsync(topic, cancellationToken);

    public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) => _topics.DeleteTopicAsync(topic, cancellationToken);

    public ValueTask DisposeAsync() => _topics.DisposeAsync();
}
