using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.References;

/// <summary>
/// What every reference shares: topics are created and deleted through librdkafka's admin client (as for
/// <c>confluent</c>), and what a tool says it produced is checked against the topic's offsets afterwards.
/// </summary>
internal abstract class ReferenceClient : IReferenceClient
{
    private static readonly TimeSpan AdminTimeout = TimeSpan.FromSeconds(30);
    private readonly IBenchClient _topics;
    private readonly IAdminClient _admin;

    protected ReferenceClient(ClientConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        Bootstrap = connection.BootstrapServers
            ?? throw new ArgumentException("A reference tool needs bootstrap servers.", nameof(connection));
        _topics = new ConfluentClientFactory().Create(connection);
        _admin = new AdminClientBuilder(ConfluentSettings.Admin(Bootstrap)).Build();
    }

    /// <summary>The cluster's bootstrap servers.</summary>
    protected string Bootstrap { get; }

    public abstract string Name { get; }

    public abstract string LibraryVersion { get; }

    public ClientCapabilities Capabilities => ClientCapabilities.None;

    public abstract IReadOnlyDictionary<string, string> Details { get; }

    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink) =>
        throw new NotSupportedException($"'{Name}' is a reference tool: it runs whole runs in a process of its own.");

    public IBenchConsumer CreateConsumer(ConsumerSpec spec) =>
        throw new NotSupportedException($"'{Name}' is a reference tool: it runs whole runs in a process of its own.");

    public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken) => _topics.CreateTopicAsync(topic, cancellationToken);

    public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) => _topics.DeleteTopicAsync(topic, cancellationToken);

    public RunMeasurement Run(ScenarioKind scenario, ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        return scenario switch
        {
            ScenarioKind.Produce => Produce(context, cancellationToken),
            ScenarioKind.Consume => Consume(context, cancellationToken),
            _ => new RunMeasurement { ElapsedSeconds = double.NaN, Error = $"'{Name}' runs produce and consume only, not {scenario}." },
        };
    }

    /// <summary>One timed produce run of the tool.</summary>
    protected abstract RunMeasurement Produce(ScenarioContext context, CancellationToken cancellationToken);

    /// <summary>One timed consume run of the tool, after an untimed fill.</summary>
    protected abstract RunMeasurement Consume(ScenarioContext context, CancellationToken cancellationToken);

    /// <summary>How long a tool may take at most: generous, for a tool that reports no progress while it works.</summary>
    protected static TimeSpan RunTimeout(ScenarioContext context, int factor = 1) =>
        context.StallTimeout + TimeSpan.FromSeconds(factor * (context.MessageCount * (context.Payload.Length + 64.0) / 20e6));

    /// <summary>Records in a topic: the sum of its partitions' end offsets (the topic is new, so they start at 0).</summary>
    protected long CountRecords(string topic)
    {
        var metadata = _admin.GetMetadata(topic, AdminTimeout);
        var partitions = metadata.Topics.Single(t => t.Topic == topic).Partitions.Select(p => new TopicPartitionOffsetSpec
        {
            TopicPartition = new TopicPartition(topic, p.PartitionId), OffsetSpec = OffsetSpec.Latest(),
        });
        var offsets = _admin.ListOffsetsAsync(partitions, new ListOffsetsOptions { RequestTimeout = AdminTimeout }).GetAwaiter().GetResult();
        return offsets.ResultInfos.Sum(r => r.TopicPartitionOffsetError.Offset.Value);
    }

    /// <summary>A produce run's measurement, after checking the topic holds what the tool says it sent.</summary>
    protected RunMeasurement Produced(ScenarioContext context, double elapsedSeconds, long expectedInTopic, string? error)
    {
        if (error is not null) return new RunMeasurement { ElapsedSeconds = double.NaN, Sent = context.MessageCount, Error = error };
        long inTopic = CountRecords(context.Topic);
        long missing = Math.Max(0, expectedInTopic - inTopic);
        return new RunMeasurement
        {
            ElapsedSeconds = missing == 0 && inTopic == expectedInTopic ? elapsedSeconds : double.NaN,
            Sent = context.MessageCount,
            Delivered = context.MessageCount - missing,
            Lost = missing,
            Error = inTopic == expectedInTopic ? null : $"the topic holds {inTopic} records after the run, {expectedInTopic} were expected",
        };
    }

    public virtual async ValueTask DisposeAsync()
    {
        _admin.Dispose();
        await _topics.DisposeAsync().ConfigureAwait(false);
    }
}
