using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Java;

/// <summary>
/// The parity table for the Java clients: KafkaPerf's common knobs mapped to the Java client's own keys, then the
/// client's <c>key=value</c> overrides, then what the scenario needs. The same knobs as <c>confluent</c>'s table,
/// so both clients run with the same settings where the settings mean the same.
/// </summary>
internal static class JavaSettings
{
    /// <summary>Producer settings, in the order they apply.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="settings">The common settings, then the client's own.</param>
    /// <param name="security">The listener's security; none for plaintext.</param>
    /// <param name="statistics">Whether the producer's metrics are read each interval (<see cref="ProducerSpec.Statistics"/>):
    /// their sample windows are then 1 s (30 s by default), so each interval's figures are its own.</param>
    public static List<KeyValuePair<string, string>> Producer(string bootstrap, ClientSettings settings, KafkaSecurity? security = null, bool statistics = false)
    {
        var config = Common(bootstrap, settings, security);
        if (statistics) config.Set("metrics.sample.window.ms", 1000);
        if (settings.Acks is { } acks) config.Set("acks", acks.ToKafkaValue());
        if (settings.LingerMs is { } linger) config.Set("linger.ms", linger);
        if (settings.BatchSizeBytes is { } batch) config.Set("batch.size", batch);
        if (settings.MaxInFlight is { } inFlight) config.Set("max.in.flight.requests.per.connection", inFlight);
        if (settings.Compression is { } codec) config.Set("compression.type", codec.ToKafkaValue());
        // librdkafka's default is no idempotence; the Java client's is idempotence whenever acks=all and at most 5 requests
        // are in flight. Off here unless --idempotence says otherwise, so that the two clients do the same work;
        // -X java:enable.idempotence=true turns it on for this client alone.
        // A transactional producer is idempotent (the Java client refuses one that is not), with an id of its own.
        config.Set("enable.idempotence", settings.Idempotence == true || settings.TransactionRecords is not null ? "true" : "false");
        if (settings.TransactionRecords is not null) config.Set("transactional.id", "kafkaperf-" + Guid.NewGuid().ToString("N"));
        return config.WithOverrides(settings);
    }

    /// <summary>Consumer settings, in the order they apply.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="groupId">The consumer group.</param>
    /// <param name="settings">The common settings, then the client's own.</param>
    /// <param name="security">The listener's security; none for plaintext.</param>
    /// <param name="statistics">Whether the consumer's metrics are read each interval (<see cref="ConsumerSpec.Statistics"/>):
    /// their windows are then a second long, as the series' intervals.</param>
    /// <param name="instanceId">The member's <c>group.instance.id</c> under static membership; none for a dynamic member.</param>
    public static List<KeyValuePair<string, string>> Consumer(string bootstrap, string groupId, ClientSettings settings, KafkaSecurity? security = null, bool statistics = false,
        string? instanceId = null)
    {
        var config = Common(bootstrap, settings, security);
        if (statistics) config.Set("metrics.sample.window.ms", 1000);
        if (settings.FetchMinBytes is { } fetchMin) config.Set("fetch.min.bytes", fetchMin);
        config.Set("group.id", groupId);
        if (settings.Group.IsShare())
        {
            // A share group's start is the group's setting (share.auto.offset.reset, set by BenchConsumer), and the share
            // consumer refuses the classic group's keys.
            config.Set("share.acknowledgement.mode", settings.Group == ConsumerGroupKind.ShareExplicit ? "explicit" : "implicit");
            return config.WithOverrides(settings);
        }
        config.Set("auto.offset.reset", "earliest");
        config.Set("allow.auto.create.topics", "false");
        if (settings.GroupProtocol is { } protocol) config.Set("group.protocol", protocol.ToText());
        if (settings.Assignor is { } assignor) config.Set("partition.assignment.strategy", assignor.JavaClass());
        if (instanceId is not null) config.Set("group.instance.id", instanceId);
        // The Java client reads uncommitted records by default; a run with transactions reads committed ones only.
        if (settings.TransactionRecords is not null) config.Set("isolation.level", "read_committed");
        return config.WithOverrides(settings);
    }

    /// <summary>Flattens settings into <c>key, value, key, value, …</c> for the Java side.</summary>
    public static string[] Flatten(List<KeyValuePair<string, string>> config) => [.. config.SelectMany(pair => new[] { pair.Key, pair.Value })];

    /// <summary>The listener's security in the Java client's keys; nothing for plain TCP.</summary>
    public static List<KeyValuePair<string, string>> Security(KafkaSecurity? security) =>
        security is { IsSecured: true } ? security.JavaProperties() : [];

    private static List<KeyValuePair<string, string>> Common(string bootstrap, ClientSettings settings, KafkaSecurity? security)
    {
        var config = new List<KeyValuePair<string, string>> { new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-java") };
        config.AddRange(Security(security));
        if (settings.SendBufferBytes is { } send) config.Set("send.buffer.bytes", send);
        if (settings.ReceiveBufferBytes is { } receive) config.Set("receive.buffer.bytes", receive);
        return config;
    }
}
