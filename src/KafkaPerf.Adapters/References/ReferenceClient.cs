using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.References;

/// <summary>
/// What every reference shares: topics are created, deleted and counted through a <c>confluent</c> client's admin
/// client, and what a tool says it produced is checked against the topic's offsets afterwards.
/// </summary>
internal abstract class ReferenceClient : IReferenceClient
{
    private readonly ConfluentClient _topics;

    protected ReferenceClient(KafkaEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        Bootstrap = endpoint.BootstrapServers
            ?? throw new ArgumentException("A reference tool needs bootstrap servers.", nameof(endpoint));
        Security = endpoint.Security;
        _topics = new ConfluentClient(endpoint, ConfluentNativeLibrary.EnsureLoaded(), new ConfluentClientOptions());
    }

    /// <summary>The cluster's bootstrap servers.</summary>
    protected string Bootstrap { get; }

    /// <summary>How the tool reaches the listener.</summary>
    protected KafkaSecurity Security { get; }

    private string? _securityFolder;

    /// <summary>The listener's security as a properties file that only this user can read, for a tool's <c>-F</c> or
    /// <c>--producer.config</c>: a password on a command line would show in every process list. Written once, deleted
    /// with the client; <see langword="null"/> for plain TCP.</summary>
    /// <param name="properties">The tool's own keys for the security.</param>
    /// <param name="javaProperties">Whether the tool reads Java's properties format, where a backslash escapes (kcat takes
    /// each line as it is).</param>
    protected string? SecurityFile(IReadOnlyList<KeyValuePair<string, string>> properties, bool javaProperties)
    {
        if (!Security.IsSecured) return null;
        if (_securityFolder is null)
        {
            var folder = Directory.CreateTempSubdirectory("kafkaperf-security-").FullName;
            PrivateFile.RestrictFolder(folder);
            _securityFolder = folder;
        }
        var path = Path.Combine(_securityFolder, javaProperties ? "client.properties" : "client.conf");
        if (!File.Exists(path))
            PrivateFile.WriteProperties(path, properties.Select(p => javaProperties
                ? new KeyValuePair<string, string>(p.Key, p.Value.Replace("\\", "\\\\", StringComparison.Ordinal)) : p));
        return path;
    }

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

    public RunRecord Run(ScenarioKind scenario, ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        return scenario switch
        {
            ScenarioKind.Produce => Produce(context, cancellationToken),
            ScenarioKind.Consume => Filled(context, Fill(context, cancellationToken)) ?? Consume(context, cancellationToken),
            _ => new RunRecord { ElapsedSeconds = double.NaN, Error = $"'{Name}' runs produce and consume only, not {scenario}." },
        };
    }

    /// <summary>One timed produce run of the tool.</summary>
    protected abstract RunRecord Produce(ScenarioContext context, CancellationToken cancellationToken);

    /// <summary>Fills the run's topic with N records for a consume run, untimed, with the tool's own producer.</summary>
    /// <returns>Why the fill failed; <see langword="null"/> when the tool reported success.</returns>
    protected abstract string? Fill(ScenarioContext context, CancellationToken cancellationToken);

    /// <summary>One timed consume run of the tool, on a topic that holds the N records.</summary>
    protected abstract RunRecord Consume(ScenarioContext context, CancellationToken cancellationToken);

    /// <summary>A consume run that failed after the fill; what arrived is counted, the rest is not verified: the tool
    /// stopped before it and says nothing of where it was, so nothing is known of it.</summary>
    protected static RunRecord ConsumeFailed(ScenarioContext context, long received, string error)
    {
        long open = Math.Max(0, context.MessageCount - received);
        return new()
        {
            ElapsedSeconds = double.NaN, Sent = context.MessageCount, Delivered = context.MessageCount, Received = received, Error = error,
            NotVerified = open,
            NotVerifiedReason = open == 0 ? null : $"{open} records not read: the tool stopped after {received} of {context.MessageCount} records",
        };
    }

    /// <summary>The failed measurement when the fill did not leave exactly N records in the topic; else <see langword="null"/>.</summary>
    private RunRecord? Filled(ScenarioContext context, string? fillError)
    {
        if (fillError is not null)
            return new RunRecord { ElapsedSeconds = double.NaN, Sent = context.MessageCount, Error = $"filling the topic before consuming: {fillError}" };
        long inTopic = CountRecords(context.Topic);
        // The tool reported every record sent and the partitions' end offsets, taken after it ended, hold fewer: the log
        // ends before the rest.
        return inTopic == context.MessageCount ? null : new RunRecord
        {
            ElapsedSeconds = double.NaN, Sent = context.MessageCount, Delivered = inTopic, Lost = Math.Max(0, context.MessageCount - inTopic),
            Error = $"filling the topic before consuming left {inTopic} of {context.MessageCount} records",
        };
    }

    /// <summary>How long a tool may take at most: generous, for a tool that reports no progress while it works.</summary>
    protected static TimeSpan RunTimeout(ScenarioContext context, int factor = 1) =>
        context.StallTimeout + TimeSpan.FromSeconds(factor * (context.MessageCount * (context.Payload.Length + 64.0) / 20e6));

    /// <summary>Records in a topic, from its end offsets.</summary>
    protected long CountRecords(string topic) => _topics.CountRecords(topic);

    /// <summary>A produce run's measurement, after checking the topic holds what the tool says it sent.</summary>
    protected RunRecord Produced(ScenarioContext context, double elapsedSeconds, long expectedInTopic, string? error)
    {
        if (error is not null) return new RunRecord { ElapsedSeconds = double.NaN, Sent = context.MessageCount, Error = error };
        long inTopic = CountRecords(context.Topic);
        long missing = Math.Max(0, expectedInTopic - inTopic);
        return new RunRecord
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
        await _topics.DisposeAsync().ConfigureAwait(false);
        if (_securityFolder is not null)
        {
            try
            {
                Directory.Delete(_securityFolder, recursive: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Only this user can read it; the temporary folder's cleaning takes it otherwise.
            }
        }
    }
}
