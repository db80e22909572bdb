using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;

namespace KafkaPerfPlugin;

/// <summary>
/// One client of a run: it makes the producers and consumers and the run's topic. An adapter only adapts: KafkaPerf owns
/// the clock, the payloads, the statistics, and checks every key exactly once.
/// </summary>
internal sealed class BenchClient(KafkaEndpoint endpoint) : IBenchClient
{
    private readonly IAdminClient _admin = new AdminClientBuilder(Config(endpoint)).Build();

    internal static string ConfluentVersion => typeof(Library).Assembly.GetName().Version?.ToString(3) ?? "?";

    public string Name => "kafkaperfplugin";

    public string LibraryVersion => $"Confluent.Kafka {ConfluentVersion}, librdkafka {Library.VersionString}";

    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency;

    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
    {
        var config = Config(endpoint);
        var settings = spec.Settings;
        // The common knobs (--acks, --linger-ms, ...) in librdkafka's keys, then this client's own -X kafkaperfplugin:key=value.
        if (settings.Acks is { } acks) config.Set("acks", acks.ToKafkaValue());
        if (settings.LingerMs is { } linger) config.Set("linger.ms", linger);
        if (settings.BatchSizeBytes is { } batch) config.Set("batch.size", batch);
        if (settings.MaxInFlight is { } inFlight) config.Set("max.in.flight.requests.per.connection", inFlight);
        if (settings.Compression is { } codec) config.Set("compression.type", codec.ToKafkaValue());
        return new BenchProducer(spec, sink, config.WithOverrides(settings));
    }

    public IBenchConsumer CreateConsumer(ConsumerSpec spec)
    {
        var config = Config(endpoint);
        config.Set("group.id", spec.GroupId);
        config.Set("auto.offset.reset", "earliest");
        config.Set("enable.auto.commit", "false");
        if (spec.Settings.FetchMinBytes is { } fetch) config.Set("fetch.min.bytes", fetch);
        return new BenchConsumer(spec, config.WithOverrides(spec.Settings));
    }

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
        // Ready when every partition has a leader: then the first send finds it, and no run times a metadata wait.
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

    /// <summary>Where to connect, with the listener's security (TLS, SASL) when the cluster has any.</summary>
    private static List<KeyValuePair<string, string>> Config(KafkaEndpoint endpoint)
    {
        var config = new List<KeyValuePair<string, string>> { new("bootstrap.servers", endpoint.BootstrapServers!), new("client.id", "kafkaperfplugin") };
        config.AddRange(endpoint.Security.LibrdkafkaProperties());
        return config;
    }
}
