using System.Diagnostics;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// The <c>confluent</c> client: Confluent.Kafka over librdkafka. One admin client per plan creates and deletes
/// the runs' topics and waits until metadata shows them (or their absence).
/// </summary>
internal sealed class ConfluentClient : IBenchClient
{
    private static readonly TimeSpan MetadataPoll = TimeSpan.FromMilliseconds(20);

    /// <summary>The longest one metadata request blocks: GetMetadata takes no cancellation token, so a caller's bound (the
    /// stall timeout around a topic's creation) holds within this much. A broker paused for 5 s once held a creation past
    /// its 3 s bound until it woke.</summary>
    private static readonly TimeSpan MetadataSlice = TimeSpan.FromSeconds(1);

    private readonly string _bootstrap;
    private readonly KafkaSecurity _security;
    private readonly LibrdkafkaBinding _binding;
    private readonly ConfluentClientOptions _options;
    private readonly IAdminClient _admin;
    private readonly ConfluentTopicCreations _creations;
    private readonly ConfluentStyle _style;
    private readonly string _name;

    public ConfluentClient(KafkaEndpoint endpoint, LibrdkafkaBinding binding, ConfluentClientOptions options,
        ConfluentStyle style = ConfluentStyle.Fastest, string name = ConfluentClientFactory.ClientName)
    {
        _style = style;
        _name = name;
        _bootstrap = endpoint.BootstrapServers
            ?? throw new ArgumentException("The confluent client needs bootstrap servers.", nameof(endpoint));
        _security = endpoint.Security;
        _binding = binding;
        _options = options;
        var failure = new SecurityFailure();
        _admin = BuildAdmin(_bootstrap, _security, failure);
        try
        {
            Probe(_admin, _bootstrap, _security, options.ConnectTimeout, failure);
        }
        catch
        {
            _admin.Dispose();
            throw;
        }
        _creations = new ConfluentTopicCreations(_admin, options.MetadataTimeout);
        var details = new Dictionary<string, string>(StringComparer.Ordinal) { ["Confluent.Kafka"] = ConfluentNativeLibrary.ManagedVersion };
        foreach (var (key, value) in binding.DetailEntries()) details[key] = value;
        Details = details;
        Warnings = binding.Warning is { } warning ? [warning] : [];
    }

    public string Name => _name;

    public string LibraryVersion => $"Confluent.Kafka {ConfluentNativeLibrary.ManagedVersion}, librdkafka {_binding.Version}";

    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency | ClientCapabilities.Workloads | ClientCapabilities.Transactions | ClientCapabilities.ShareGroups | ClientCapabilities.GroupMembership;

    public IReadOnlyDictionary<string, string> Details { get; }

    public IReadOnlyList<string> Warnings { get; }

    public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(sink);
        // Getting the topic's metadata and connecting cannot be interrupted: it is bounded by the stall timeout instead.
        var metadataTimeout = spec.StallTimeout < _options.MetadataTimeout ? spec.StallTimeout : _options.MetadataTimeout;
        return _style switch
        {
            ConfluentStyle.Awaited => new ConfluentAsyncProducer(spec, sink, _bootstrap, _security, _binding, metadataTimeout, window: 1),
            ConfluentStyle.AsyncWindow => new ConfluentAsyncProducer(spec, sink, _bootstrap, _security, _binding, metadataTimeout,
                ConfluentAsyncProducer.Window(spec.Settings, _name, ConfluentAsyncProducer.DefaultWindow)),
            _ => new ConfluentProducer(spec, sink, _bootstrap, _security, _binding, metadataTimeout),
        };
    }

    public IBenchConsumer CreateConsumer(ConsumerSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        if (spec.Settings.Group.IsShare())
            return LibrdkafkaShareConsumer.IsAvailable(_binding)
                ? new LibrdkafkaShareConsumer(spec, _bootstrap, _security, _binding, _admin)
                : throw new NotSupportedException($"librdkafka {_binding.Version} has no share consumer (librdkafka 2.15 and later have one): run --group share with a later confluent@VERSION.");
        return _style == ConfluentStyle.RecordConsume
            ? new ConfluentRecordConsumer(spec, _bootstrap, _security, _binding)
            : new ConfluentConsumer(spec, _bootstrap, _security, _binding);
    }

    public async ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(topic);
        // With the other topics asked for at the same time, in one request (ConfluentTopicCreations).
        await _creations.CreateAsync(new TopicSpecification
        {
            Name = topic.Name, NumPartitions = topic.Partitions, ReplicationFactor = topic.ReplicationFactor,
            Configs = topic.Configs.ToDictionary(),
        }).WaitAsync(cancellationToken).ConfigureAwait(false);
        await WaitForMetadataAsync(_admin, topic.Name, present: true, _options.MetadataTimeout, cancellationToken).ConfigureAwait(false);
    }

    public async ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
    {
        try
        {
            await _admin.DeleteTopicsAsync([topic], new DeleteTopicsOptions { RequestTimeout = _options.MetadataTimeout, OperationTimeout = _options.MetadataTimeout })
                .WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (DeleteTopicsException ex) when (ex.Results.All(r => r.Error.Code == ErrorCode.UnknownTopicOrPart))
        {
            return;
        }
        await WaitForMetadataAsync(_admin, topic, present: false, _options.MetadataTimeout, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Records in a topic: the sum of its partitions' end offsets (a new topic starts at 0). Reference tools check
    /// with it what they say they produced.</summary>
    /// <param name="topic">The topic.</param>
    /// <returns>The number of records.</returns>
    internal long CountRecords(string topic)
    {
        var metadata = _admin.GetMetadata(topic, _options.MetadataTimeout);
        var partitions = metadata.Topics.Single(t => t.Topic == topic).Partitions.Select(p => new TopicPartitionOffsetSpec
        {
            TopicPartition = new TopicPartition(topic, p.PartitionId), OffsetSpec = OffsetSpec.Latest(),
        });
        var offsets = _admin.ListOffsetsAsync(partitions, new ListOffsetsOptions { RequestTimeout = _options.MetadataTimeout }).GetAwaiter().GetResult();
        return offsets.ResultInfos.Sum(r => r.TopicPartitionOffsetError.Offset.Value);
    }

    public ValueTask DisposeAsync()
    {
        PollWakeup.DisposeAdmin(_admin);
        return ValueTask.CompletedTask;
    }

    /// <summary>Records a new producer's effective configuration and prepares its handle for the topic
    /// (<see cref="PrepareProducerHandle"/>); disposes it when either fails.</summary>
    /// <returns>The effective configuration.</returns>
    internal static IReadOnlyDictionary<string, string> PrepareProducer<TKey, TValue>(IProducer<TKey, TValue> producer, LibrdkafkaBinding binding,
        List<KeyValuePair<string, string>> settings, string topic, TimeSpan metadataTimeout)
    {
        try
        {
            var effective = LibrdkafkaConfigDump.Effective(binding, settings, producer.Handle);
            PrepareProducerHandle(producer.Handle, topic, metadataTimeout);
            return effective;
        }
        catch
        {
            producer.Dispose();
            throw;
        }
    }

    /// <summary>Makes a producer's own handle fetch a topic's metadata, waits until every partition has a leader,
    /// then opens the connection to every leader with a ListOffsets request, so that the first timed send waits
    /// neither for metadata nor for a connection (librdkafka connects to a broker only when it first needs it).</summary>
    /// <param name="handle">The producer's own handle.</param>
    /// <param name="topic">The topic.</param>
    /// <param name="timeout">How long to wait.</param>
    /// <exception cref="TimeoutException">The topic did not show up with leaders in time.</exception>
    internal static void PrepareProducerHandle(Handle handle, string topic, TimeSpan timeout)
    {
        var admin = new DependentAdminClientBuilder(handle).Build();
        try
        {
            long deadline = Deadline(timeout);
            // Called from the producer's constructor, outside any timed section; no synchronisation context to block.
            var metadata = WaitForMetadataAsync(admin, topic, present: true, timeout, CancellationToken.None).GetAwaiter().GetResult();
            var partitions = metadata.Topics.Single(t => t.Topic == topic).Partitions.Select(p => new TopicPartitionOffsetSpec
            {
                TopicPartition = new TopicPartition(topic, p.PartitionId), OffsetSpec = OffsetSpec.Latest(),
            });
            while (true)
            {
                try
                {
                    admin.ListOffsetsAsync(partitions, new ListOffsetsOptions { RequestTimeout = Remaining(deadline) }).GetAwaiter().GetResult();
                    return;
                }
                catch (ListOffsetsException) when (Stopwatch.GetTimestamp() < deadline)
                {
                    // Just after creation a partition's leader may not serve yet (seen with 3 partitions): ask again.
                    Thread.Sleep(MetadataPoll);
                }
            }
        }
        finally
        {
            // Before the producer, whose handle it uses; without the wakeup its Dispose took 0.1 s of every producer's start.
            PollWakeup.DisposeAdmin(admin);
        }
    }

    /// <summary>Checks that a broker answers a metadata request at <paramref name="bootstrap"/>.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="security">The listener's security.</param>
    /// <param name="timeout">How long to try.</param>
    /// <returns>The number of brokers in the cluster.</returns>
    /// <exception cref="PrerequisiteException">No broker answered in time; one line says what to check.</exception>
    internal static int Probe(string bootstrap, KafkaSecurity security, TimeSpan timeout)
    {
        var failure = new SecurityFailure();
        using var admin = BuildAdmin(bootstrap, security, failure);
        return Probe(admin, bootstrap, security, timeout, failure);
    }

    /// <summary>Asks for metadata in short slices, so that a refused login or a failed TLS handshake - which librdkafka
    /// reports as an error event and then retries for ever - ends the wait at once with its own line.</summary>
    private static int Probe(IAdminClient admin, string bootstrap, KafkaSecurity security, TimeSpan timeout, SecurityFailure failure)
    {
        long deadline = Deadline(timeout);
        while (true)
        {
            try
            {
                return admin.GetMetadata(Min(Remaining(deadline), ProbeSlice)).Brokers.Count;
            }
            catch (KafkaException ex)
            {
                if (failure.Reason is { } reason) throw new PrerequisiteException(SecurityFailure.Line(bootstrap, security, reason), ex);
                if (Stopwatch.GetTimestamp() < deadline) continue;
                throw new PrerequisiteException(
                    $"No Kafka broker answered at '{bootstrap}' within {timeout.TotalSeconds:0.#} s ({ex.Error.Reason}): check --bootstrap, or leave it out to use the embedded broker.", ex);
            }
        }
    }

    private static readonly TimeSpan ProbeSlice = TimeSpan.FromSeconds(1);

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;

    private static IAdminClient BuildAdmin(string bootstrap, KafkaSecurity security, SecurityFailure? failure = null) =>
        new AdminClientBuilder(ConfluentSettings.Admin(bootstrap, security))
            // librdkafka says some of it only in its log (a disconnect while asking for API versions: "might be caused by
            // incorrect security.protocol configuration"), not as an error event.
            .SetLogHandler((_, log) => failure?.Observe(new Error(ErrorCode.Local_Transport, log.Message)))
            .SetErrorHandler((_, error) => failure?.Observe(error))
            .Build();

    /// <summary>The first error that says the listener refused the client's security: a failed login, a TLS handshake
    /// that failed, or a protocol the listener does not speak.</summary>
    private sealed class SecurityFailure
    {
        private string? _reason;
        private int _versionQueryDrops;

        public string? Reason => Volatile.Read(ref _reason);

        public void Observe(Error error)
        {
            bool security = error.Code is ErrorCode.Local_Authentication or ErrorCode.SaslAuthenticationFailed or ErrorCode.Local_Ssl
                || error.Reason.Contains("SSL handshake", StringComparison.Ordinal) || error.Reason.Contains("SASL authentication", StringComparison.Ordinal)
                || error.Reason.Contains("security.protocol", StringComparison.Ordinal);
            // A listener of another protocol closes the connection at the client's first request (its API versions): once
            // may be a broker going down, twice in a row is the protocol.
            if (!security && error.Code == ErrorCode.Local_Transport && error.Reason.Contains("in state APIVERSION_QUERY", StringComparison.Ordinal))
                security = Interlocked.Increment(ref _versionQueryDrops) >= 2;
            if (security) Interlocked.CompareExchange(ref _reason, error.Reason, null);
        }

        public static string Line(string bootstrap, KafkaSecurity security, string reason)
        {
            if (reason.Contains("SASL authentication", StringComparison.OrdinalIgnoreCase) || reason.Contains("Authentication failed", StringComparison.OrdinalIgnoreCase))
                return $"The Kafka cluster at '{bootstrap}' refused the {security.MechanismName} login of user '{security.Username}' ({reason}): "
                    + "check the credentials (--sasl-credentials FILE, or KAFKAPERF_SASL_USERNAME and KAFKAPERF_SASL_PASSWORD) and --sasl-mechanism.";
            if (security.UsesTls && (reason.Contains("certificate", StringComparison.OrdinalIgnoreCase) || reason.Contains("ssl.ca", StringComparison.OrdinalIgnoreCase)))
                return $"The brokers at '{bootstrap}' show a certificate this client does not trust ({reason}): give the CA that signed it with --ssl-ca FILE (PEM).";
            return $"The listener at '{bootstrap}' does not speak {security.ProtocolName} ({reason}): check --security against the listener's protocol.";
        }
    }

    /// <summary>Asks for a topic's metadata until it shows the topic with a leader for every partition (or its absence).</summary>
    /// <returns>The metadata that showed it.</returns>
    private static async Task<Metadata> WaitForMetadataAsync(
        IAdminClient admin, string topic, bool present, TimeSpan timeout, CancellationToken cancellationToken)
    {
        long deadline = Deadline(timeout);
        string last = "no answer";
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                var left = Remaining(deadline);
                var metadata = admin.GetMetadata(topic, cancellationToken.CanBeCanceled && left > MetadataSlice ? MetadataSlice : left);
                if (present ? IsReady(metadata, topic, out last) : IsAbsent(metadata, topic, out last)) return metadata;
            }
            catch (KafkaException ex)
            {
                last = ex.Error.Reason;
            }
            if (Stopwatch.GetTimestamp() >= deadline)
                throw new TimeoutException(
                    $"Topic '{topic}' was not {(present ? "ready" : "gone")} in the metadata within {timeout.TotalSeconds:0.#} s ({last}).");
            await Task.Delay(MetadataPoll, cancellationToken).ConfigureAwait(false);
        }
    }

    private static bool IsReady(Metadata metadata, string topic, out string state)
    {
        var found = metadata.Topics.FirstOrDefault(t => t.Topic == topic);
        state = found is null ? "not listed" : found.Error.IsError ? found.Error.Reason : $"{found.Partitions.Count} partitions";
        return found is { Error.IsError: false, Partitions.Count: > 0 } && found.Partitions.All(p => p.Leader >= 0 && !p.Error.IsError);
    }

    private static bool IsAbsent(Metadata metadata, string topic, out string state)
    {
        var found = metadata.Topics.FirstOrDefault(t => t.Topic == topic);
        state = found is null ? "not listed" : found.Error.IsError ? found.Error.Reason : "still listed";
        return found is null || found.Error.Code == ErrorCode.UnknownTopicOrPart;
    }

    private static long Deadline(TimeSpan timeout) => Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);

    private static TimeSpan Remaining(long deadline)
    {
        var left = TimeSpan.FromSeconds((deadline - Stopwatch.GetTimestamp()) / (double)Stopwatch.Frequency);
        return left > TimeSpan.FromMilliseconds(100) ? left : TimeSpan.FromMilliseconds(100);
    }
}
