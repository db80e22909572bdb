using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// The parity table for <c>confluent</c>: KafkaPerf's common knobs mapped to librdkafka's own keys, then the
/// client's <c>key=value</c> overrides, then what the scenario needs (bootstrap, group, offsets).
/// </summary>
internal static class ConfluentSettings
{
    /// <summary>Producer settings, in the order they apply.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="settings">The variant's settings.</param>
    /// <param name="styleDefaults">For the API-style variants: Confluent.Kafka's own defaults for what a delivery report
    /// carries, as application code has them, and the variant's <c>window</c> key taken out (it is not librdkafka's).</param>
    /// <param name="security">How to reach the listener; plain TCP when <see langword="null"/>.</param>
    public static List<KeyValuePair<string, string>> Producer(string bootstrap, ClientSettings settings, bool styleDefaults = false, KafkaSecurity? security = null)
    {
        var config = Common(bootstrap, settings, security);
        if (settings.Acks is { } acks) config.Set("acks", acks.ToKafkaValue());
        if (settings.LingerMs is { } linger) config.Set("linger.ms", linger);
        if (settings.BatchSizeBytes is { } batch) config.Set("batch.size", batch);
        if (settings.MaxInFlight is { } inFlight) config.Set("max.in.flight.requests.per.connection", inFlight);
        if (settings.Compression is { } codec) config.Set("compression.type", codec.ToKafkaValue());
        if (settings.Idempotence is { } idempotence) config.Set("enable.idempotence", idempotence ? "true" : "false");
        // librdkafka's default partitioner hashes keys with CRC32 (consistent_random), the Java client's with murmur2: with
        // keys set, the same key goes to the same partition in both clients (docs/workloads.md).
        if (settings.Keys is not null) config.Set("partitioner", "murmur2_random");
        // A transactional producer: an id of its own (two producers with one id fence each other).
        if (settings.TransactionRecords is not null) config.Set("transactional.id", "kafkaperf-" + Guid.NewGuid().ToString("N"));
        // The adapter needs only the key back in a delivery report: no timestamp, headers, value or status marshalling.
        if (!styleDefaults) config.Set("dotnet.producer.delivery.report.fields", "key");
        // Topics are the runner's: a producer's metadata request must never re-create one that was just deleted.
        config.Set("allow.auto.create.topics", "false");
        var all = config.WithOverrides(settings);
        if (styleDefaults) all.RemoveAll(e => e.Key == ConfluentAsyncProducer.WindowKey);
        return all;
    }

    /// <summary>Consumer settings, in the order they apply.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="groupId">The consumer group.</param>
    /// <param name="settings">The variant's settings.</param>
    /// <param name="styleDefaults">For the API-style variants: Confluent.Kafka's own defaults for what a consume result
    /// carries (topic, timestamp, headers), as application code has them.</param>
    /// <param name="security">How to reach the listener; plain TCP when <see langword="null"/>.</param>
    /// <param name="instanceId">The member's <c>group.instance.id</c> under static membership; none for a dynamic member.</param>
    public static List<KeyValuePair<string, string>> Consumer(string bootstrap, string groupId, ClientSettings settings, bool styleDefaults = false,
        KafkaSecurity? security = null, string? instanceId = null)
    {
        var config = Common(bootstrap, settings, security);
        if (settings.FetchMinBytes is { } fetchMin) config.Set("fetch.min.bytes", fetchMin);
        config.Set("group.id", groupId);
        if (settings.GroupProtocol is { } protocol) config.Set("group.protocol", protocol.ToText());
        if (settings.Assignor is { } assignor) config.Set("partition.assignment.strategy", assignor.ToText());
        if (instanceId is not null) config.Set("group.instance.id", instanceId);
        config.Set("auto.offset.reset", "earliest");
        config.Set("allow.auto.create.topics", "false");
        // librdkafka's default, said: a run with transactions reads committed records only.
        if (settings.TransactionRecords is not null) config.Set("isolation.level", "read_committed");
        // Key and value are all the scenario reads: topic name, timestamp and headers are not marshalled.
        if (!styleDefaults) config.Set("dotnet.consumer.consume.result.fields", "none");
        var all = config.WithOverrides(settings);
        // confluent-async's window is a producer setting of its own, not librdkafka's: its consumer (confluent's) must not
        // pass it on. Every other variant rejects the key before anything starts (CheckSettings).
        all.RemoveAll(e => e.Key == ConfluentAsyncProducer.WindowKey);
        return all;
    }

    /// <summary>Settings of librdkafka's share consumer: the consumer's common knobs, without the classic group's keys
    /// (the group's start is its own setting; librdkafka refuses or ignores offset reset, isolation and auto-creation for
    /// a share consumer) and without Confluent.Kafka's <c>dotnet.*</c> keys, which no share consumer reads.</summary>
    public static List<KeyValuePair<string, string>> ShareConsumer(string bootstrap, string groupId, ClientSettings settings, KafkaSecurity? security = null)
    {
        var config = Common(bootstrap, settings, security);
        if (settings.FetchMinBytes is { } fetchMin) config.Set("fetch.min.bytes", fetchMin);
        config.Set("group.id", groupId);
        config.Set("share.acknowledgement.mode", settings.Group == ConsumerGroupKind.ShareExplicit ? "explicit" : "implicit");
        var all = config.WithOverrides(settings);
        all.RemoveAll(e => e.Key == ConfluentAsyncProducer.WindowKey || e.Key.StartsWith("dotnet.", StringComparison.Ordinal));
        return all;
    }

    /// <summary>Admin client settings.</summary>
    /// <remarks>librdkafka builds an admin client as a producer, which asks brokers to auto-create any topic it requests
    /// metadata for: on a cluster with <c>auto.create.topics.enable=true</c> (Kafka's default) waiting for a deleted topic
    /// to disappear re-created it. Hence <c>allow.auto.create.topics=false</c>.</remarks>
    /// <remarks>No rebootstrap either: librdkafka 2.16.0 deadlocked in it (a broker thread blocked in
    /// <c>rd_kafka_rebootstrap</c> → <c>rd_kafka_timer_start0</c>, a metadata request stuck past its timeout) when a
    /// SASL_PLAINTEXT client kept failing against a TLS listener; the admin client's bootstrap list is the cluster's own.</remarks>
    public static List<KeyValuePair<string, string>> Admin(string bootstrap, KafkaSecurity? security = null) =>
        [new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-confluent-admin"), new("allow.auto.create.topics", "false"),
            new("metadata.recovery.strategy", "none"), .. Security(security)];

    /// <summary>The listener's security in librdkafka's keys; nothing for plain TCP, so plaintext configurations stay as they were.</summary>
    public static List<KeyValuePair<string, string>> Security(KafkaSecurity? security) =>
        security is { IsSecured: true } ? security.LibrdkafkaProperties() : [];

    private static List<KeyValuePair<string, string>> Common(string bootstrap, ClientSettings settings, KafkaSecurity? security)
    {
        var config = new List<KeyValuePair<string, string>> { new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-confluent") };
        // Security comes before the knobs and overrides: -X confluent:ssl.endpoint.identification.algorithm=none and the like still apply.
        config.AddRange(Security(security));
        if (settings.SendBufferBytes is { } send) config.Set("socket.send.buffer.bytes", send);
        if (settings.ReceiveBufferBytes is { } receive) config.Set("socket.receive.buffer.bytes", receive);
        return config;
    }
}
