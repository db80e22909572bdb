using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;

namespace CustomClient;

/// <summary>
/// Sends every record as an <see cref="Order"/> serialized to JSON, keyed by the order's id as text, and reads it back
/// the same way. The adapter only adapts: KafkaPerf times the runs, counts the records and checks every key.
/// </summary>
public sealed class OrdersClient(KafkaEndpoint endpoint) : IBenchClient
{
    private readonly IAdminClient _admin = new AdminClientBuilder(Config(endpoint, [])).Build();

    public string Name => "orders-json";

    public string LibraryVersion => $"Confluent.Kafka {LibraryVersionOf()}, librdkafka {Library.VersionString}";

    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency;

    public IReadOnlyDictionary<string, string> Details => new Dictionary<string, string>
    {
        ["serializer"] = "System.Text.Json (source-generated)",
        ["librdkafka"] = Library.VersionString,
    };

    internal static string LibraryVersionOf() => typeof(Library).Assembly.GetName().Version?.ToString(3) ?? "?";

    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink) => new OrdersProducer(spec, sink, Config(endpoint, Producer(spec.Settings)));

    public IBenchConsumer CreateConsumer(ConsumerSpec spec) => new OrdersConsumer(spec, Config(endpoint, Consumer(spec)));

    public async ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
    {
        try
        {
            await _admin.CreateTopicsAsync([new TopicSpecification
            {
                Name = topic.Name, NumPartitions = topic.Partitions, ReplicationFactor = topic.ReplicationFactor,
                Configs = topic.Configs.ToDictionary(),
            }]);
        }
        catch (CreateTopicsException ex) when (ex.Results.All(r => r.Error.Code == ErrorCode.TopicAlreadyExists))
        {
            throw new TopicExistsException(topic.Name, ex);
        }
        // The topic exists when every partition has a leader: then the first send finds it.
        while (_admin.GetMetadata(topic.Name, TimeSpan.FromSeconds(5)).Topics.FirstOrDefault() is not { Error.IsError: false } metadata
               || metadata.Partitions.Count < topic.Partitions || metadata.Partitions.Any(p => p.Leader < 0))
        {
            await Task.Delay(50, cancellationToken);
        }
    }

    public async ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
    {
        try
        {
            await _admin.DeleteTopicsAsync([topic]).WaitAsync(cancellationToken);
        }
        catch (DeleteTopicsException ex) when (ex.Results.All(r => r.Error.Code == ErrorCode.UnknownTopicOrPart))
        {
        }
    }

    public ValueTask DisposeAsync()
    {
        _admin.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>The client's settings: the connection's, then the common knobs mapped to librdkafka's keys, then this
    /// client's own <c>-X orders-json:key=value</c> settings.</summary>
    private static List<KeyValuePair<string, string>> Config(KafkaEndpoint endpoint, List<KeyValuePair<string, string>> knobs)
    {
        var config = new List<KeyValuePair<string, string>> { new("bootstrap.servers", endpoint.BootstrapServers!), new("client.id", "orders-json") };
        config.AddRange(endpoint.Security.LibrdkafkaProperties());
        foreach (var (key, value) in knobs) config.Set(key, value);
        return config;
    }

    private static List<KeyValuePair<string, string>> Producer(ClientSettings settings)
    {
        var config = new List<KeyValuePair<string, string>>();
        if (settings.Acks is { } acks) config.Set("acks", acks.ToKafkaValue());
        if (settings.LingerMs is { } linger) config.Set("linger.ms", linger);
        if (settings.BatchSizeBytes is { } batch) config.Set("batch.size", batch);
        if (settings.MaxInFlight is { } inFlight) config.Set("max.in.flight.requests.per.connection", inFlight);
        if (settings.Compression is { } codec) config.Set("compression.type", codec.ToKafkaValue());
        config.Set("allow.auto.create.topics", "false");
        return config.WithOverrides(settings);
    }

    private static List<KeyValuePair<string, string>> Consumer(ConsumerSpec spec)
    {
        var config = new List<KeyValuePair<string, string>> { new("group.id", spec.GroupId), new("auto.offset.reset", "earliest"), new("enable.auto.commit", "false") };
        if (spec.Settings.FetchMinBytes is { } fetch) config.Set("fetch.min.bytes", fetch);
        return config.WithOverrides(spec.Settings);
    }
}
