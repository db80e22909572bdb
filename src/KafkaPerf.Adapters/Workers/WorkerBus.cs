using System.Text.RegularExpressions;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// The one topic through which a worker group and its coordinator talk, on the cluster under test: every party writes
/// its messages there (keyed by its name) and reads everything written after it joined. One partition, so everyone sees
/// the messages in the same order; retention one hour, so an idle group's topic stays small.
/// </summary>
/// <remarks>Reading is by assignment, not in a consumer group: every party must see every message.</remarks>
public sealed partial class WorkerBus : IWorkerTransport
{
    /// <summary>The largest message (a run's results with its interval histograms).</summary>
    public const int MaxMessageBytes = 16 * 1024 * 1024;

    private readonly IProducer<string, byte[]> _producer;
    private readonly IConsumer<string, byte[]> _consumer;
    private readonly IAdminClient _admin;
    private string? _sendError;

    private WorkerBus(string topic, IAdminClient admin, IProducer<string, byte[]> producer, IConsumer<string, byte[]> consumer)
    {
        Topic = topic;
        _admin = admin;
        _producer = producer;
        _consumer = consumer;
    }

    /// <summary>The group's topic.</summary>
    public string Topic { get; }

    /// <summary>The topic of a worker group.</summary>
    /// <param name="group">The group's name.</param>
    /// <returns><c>kafkaperf-workers.</c> and the name.</returns>
    public static string TopicOf(string group) => "kafkaperf-workers." + group;

    /// <summary>Why a group name cannot be one; <see langword="null"/> when it can (letters, digits, '.', '_', '-', up to 200).</summary>
    /// <param name="group">A name.</param>
    /// <returns>The problem, or <see langword="null"/>.</returns>
    public static string? CheckGroupName(string group) =>
        GroupName().IsMatch(group) ? null : $"the worker group '{group}' is not a name of letters, digits, '.', '_' and '-' (at most 200)";

    /// <summary>Joins a group's topic, creating it when missing, and reads from its current end.</summary>
    /// <param name="bootstrap">The cluster.</param>
    /// <param name="security">Its listener's security.</param>
    /// <param name="group">The group's name.</param>
    /// <param name="timeout">How long the cluster may take to answer.</param>
    /// <returns>The bus.</returns>
    /// <exception cref="TimeoutException">The cluster did not answer in time.</exception>
    public static WorkerBus Open(string bootstrap, KafkaSecurity security, string group, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(security);
        if (CheckGroupName(group) is { } problem) throw new ArgumentException(problem, nameof(group));
        ConfluentNativeLibrary.EnsureLoaded();
        var topic = TopicOf(group);
        var common = ConfluentSettings.Security(security);
        var admin = new AdminClientBuilder(ConfluentSettings.Admin(bootstrap, security)).SetLogHandler((_, _) => { }).Build();
        IProducer<string, byte[]>? producer = null;
        try
        {
            Create(admin, topic, timeout);
            producer = new ProducerBuilder<string, byte[]>(
                [new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-worker-bus"), new("linger.ms", "0"),
                    new("compression.type", "lz4"), new("message.max.bytes", MaxMessageBytes.ToString(System.Globalization.CultureInfo.InvariantCulture)),
                    new("acks", "all"), .. common])
                .SetLogHandler((_, _) => { }).Build();
            var consumer = new ConsumerBuilder<string, byte[]>(
                [new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-worker-bus"), new("group.id", "kafkaperf-worker-bus-" + Guid.NewGuid().ToString("N")),
                    new("enable.auto.commit", "false"), new("fetch.wait.max.ms", "50"), new("allow.auto.create.topics", "false"), .. common])
                .SetLogHandler((_, _) => { }).Build();
            // From the end as it is now, known before anything is sent: a message written after this call is never missed.
            var partition = new TopicPartition(topic, 0);
            var end = consumer.QueryWatermarkOffsets(partition, timeout).High;
            consumer.Assign(new TopicPartitionOffset(partition, end));
            return new WorkerBus(topic, admin, producer, consumer);
        }
        catch (KafkaException ex)
        {
            producer?.Dispose();
            admin.Dispose();
            throw new TimeoutException($"the cluster at {bootstrap} did not let KafkaPerf use the topic '{topic}': {ex.Error.Reason}", ex);
        }
        catch
        {
            producer?.Dispose();
            admin.Dispose();
            throw;
        }
    }

    private static void Create(IAdminClient admin, string topic, TimeSpan timeout)
    {
        try
        {
            admin.CreateTopicsAsync(
                [new TopicSpecification
                {
                    Name = topic, NumPartitions = 1, ReplicationFactor = -1,
                    Configs = new Dictionary<string, string>
                    {
                        ["retention.ms"] = "3600000",
                        ["max.message.bytes"] = MaxMessageBytes.ToString(System.Globalization.CultureInfo.InvariantCulture),
                    },
                }],
                new CreateTopicsOptions { RequestTimeout = timeout, OperationTimeout = timeout }).Wait(timeout + timeout);
        }
        catch (AggregateException ex) when (ex.InnerException is CreateTopicsException c && c.Results.All(r => r.Error.Code == ErrorCode.TopicAlreadyExists))
        {
            // Another worker, or the coordinator, made it.
        }
        catch (AggregateException ex) when (ex.InnerException is KafkaException k)
        {
            throw k;
        }
        // Until it is in the metadata, a read of its offsets fails.
        var deadline = DateTime.UtcNow + timeout;
        while (admin.GetMetadata(topic, timeout).Topics is not [{ Error.Code: ErrorCode.NoError, Partitions.Count: > 0 }])
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"the topic '{topic}' did not appear within {timeout.TotalSeconds:0.#} s");
            Thread.Sleep(100);
        }
    }

    /// <summary>Writes a message; a failure shows in <see cref="TakeSendError"/>.</summary>
    /// <param name="key">The sender.</param>
    /// <param name="value">The message.</param>
    public void Send(string key, byte[] value)
    {
        try
        {
            _producer.Produce(Topic, new Message<string, byte[]> { Key = key, Value = value }, report =>
            {
                if (report.Error.IsError) _sendError = report.Error.Reason;
            });
        }
        catch (ProduceException<string, byte[]> ex)
        {
            _sendError = ex.Error.Reason;
        }
    }

    /// <summary>Waits until what was sent is written.</summary>
    /// <param name="timeout">How long at most.</param>
    /// <returns><see langword="true"/> when nothing is left to send.</returns>
    public bool Flush(TimeSpan timeout) => _producer.Flush(timeout) == 0;

    /// <summary>The last send that failed, once; <see langword="null"/> when none did.</summary>
    /// <returns>Its error.</returns>
    public string? TakeSendError() => Interlocked.Exchange(ref _sendError, null);

    /// <summary>The next message, or <see langword="null"/> when none came within <paramref name="timeout"/>.</summary>
    /// <param name="timeout">How long to wait.</param>
    /// <returns>Its sender and bytes.</returns>
    public (string Key, byte[] Value)? Receive(TimeSpan timeout)
    {
        try
        {
            var result = _consumer.Consume(timeout);
            return result?.Message is { } m ? (m.Key ?? string.Empty, m.Value ?? []) : null;
        }
        catch (ConsumeException)
        {
            // A message that cannot be read is skipped; the protocol's waits are bounded.
            return null;
        }
    }

    /// <summary>Deletes the group's topic (a group the coordinator made up for its own local workers).</summary>
    /// <param name="timeout">How long the cluster may take.</param>
    public void DeleteTopic(TimeSpan timeout)
    {
        try
        {
            _admin.DeleteTopicsAsync([Topic], new DeleteTopicsOptions { RequestTimeout = timeout, OperationTimeout = timeout }).Wait(timeout + timeout);
        }
        catch (AggregateException)
        {
            // Retention empties it within the hour.
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _producer.Flush(TimeSpan.FromSeconds(2));
        _consumer.Close();
        _consumer.Dispose();
        _producer.Dispose();
        _admin.Dispose();
    }

    [GeneratedRegex("^[A-Za-z0-9._-]{1,200}$")]
    private static partial Regex GroupName();
}
