using System.Collections.Concurrent;

namespace KafkaPerf.Clients.InMemory;

/// <summary>
/// A client without Kafka: topics are in-process queues. Unit tests use it, and it measures what the harness
/// itself costs per message, which bounds what any real client can be measured at.
/// </summary>
public sealed class InMemoryClient : IBenchClient
{
    private readonly ConcurrentDictionary<string, PartitionedTopic> _topics = new(StringComparer.Ordinal);
    private readonly InMemoryClientOptions _options;
    private readonly SegmentPool _segments = new();

    /// <summary>Creates the client.</summary>
    /// <param name="options">Its options.</param>
    public InMemoryClient(InMemoryClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.MaxQueuedRecords < 1)
            throw new ArgumentOutOfRangeException(nameof(options), "MaxQueuedRecords must be at least 1.");
        _options = options;
    }

    /// <inheritdoc />
    public string Name => _options.Name;

    /// <inheritdoc />
    public string LibraryVersion => ClientContract.Release;

    /// <inheritdoc />
    public ClientCapabilities Capabilities =>
        (_options.ReportsDeliveryLatency ? ClientCapabilities.DeliveryLatency : ClientCapabilities.None) | ClientCapabilities.Workloads;

    /// <inheritdoc />
    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(sink);
        return new InMemoryProducer(GetTopic(spec.Topic), sink, _options, Describe(spec.Settings));
    }

    /// <inheritdoc />
    public IBenchConsumer CreateConsumer(ConsumerSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        return new InMemoryConsumer(GetTopic(spec.Topic), Describe(spec.Settings), spec.Settings.IdInValue, _options.FirstRecordDelay);
    }

    /// <inheritdoc />
    public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(topic);
        if (!_topics.TryAdd(topic.Name, new PartitionedTopic(topic.Partitions, _options.MaxQueuedRecords, _segments)))
            throw new InvalidOperationException($"Topic '{topic.Name}' already exists.");
        return ValueTask.CompletedTask;
    }

    /// <inheritdoc />
    public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
    {
        if (_topics.TryRemove(topic, out var removed)) removed.Release();
        return ValueTask.CompletedTask;
    }

    /// <summary>Whether a topic exists (for tests of the topic lifecycle).</summary>
    /// <param name="topic">The topic name.</param>
    /// <returns><see langword="true"/> when it exists.</returns>
    public bool TopicExists(string topic) => _topics.ContainsKey(topic);

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _topics.Clear();
        return ValueTask.CompletedTask;
    }

    private PartitionedTopic GetTopic(string name) =>
        _topics.TryGetValue(name, out var topic)
            ? topic
            : throw new InvalidOperationException($"Topic '{name}' does not exist; create it first.");

    // The in-memory client has no knobs of its own: it records what it was asked for.
    private static Dictionary<string, string> Describe(ClientSettings settings)
    {
        var config = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (key, value) in settings.SetKnobs()) config[key] = value;
        foreach (var (key, value) in settings.Overrides) config[key] = value;
        return config;
    }
}
