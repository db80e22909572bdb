using System.Globalization;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// The parity table for <c>confluent</c>: KafkaPerf's common knobs mapped to librdkafka's own keys, then the
/// client's <c>key=value</c> overrides, then what the scenario needs (bootstrap, group, offsets).
/// </summary>
internal static class ConfluentSettings
{
    /// <summary>Producer settings, in the order they apply.</summary>
    public static List<KeyValuePair<string, string>> Producer(string bootstrap, ClientSettings settings)
    {
        var config = Common(bootstrap, settings);
        if (settings.Acks is { } acks) Set(config, "acks", acks switch { AcksMode.None => "0", AcksMode.Leader => "1", _ => "all" });
        if (settings.LingerMs is { } linger) Set(config, "linger.ms", linger);
        if (settings.BatchSizeBytes is { } batch) Set(config, "batch.size", batch);
        if (settings.MaxInFlight is { } inFlight) Set(config, "max.in.flight.requests.per.connection", inFlight);
        if (settings.Compression is { } codec) Set(config, "compression.type", codec.ToString().ToLowerInvariant());
        // The adapter needs only the key back in a delivery report: no timestamp, headers, value or status marshalling.
        Set(config, "dotnet.producer.delivery.report.fields", "key");
        // Topics are the runner's: a producer's metadata request must never re-create one that was just deleted.
        Set(config, "allow.auto.create.topics", "false");
        return Overridden(config, settings);
    }

    /// <summary>Consumer settings, in the order they apply.</summary>
    public static List<KeyValuePair<string, string>> Consumer(string bootstrap, string groupId, ClientSettings settings)
    {
        var config = Common(bootstrap, settings);
        if (settings.FetchMinBytes is { } fetchMin) Set(config, "fetch.min.bytes", fetchMin);
        Set(config, "group.id", groupId);
        Set(config, "auto.offset.reset", "earliest");
        Set(config, "allow.auto.create.topics", "false");
        // Key and value are all the scenario reads: topic name, timestamp and headers are not marshalled.
        Set(config, "dotnet.consumer.consume.result.fields", "none");
        return Overridden(config, settings);
    }

    /// <summary>Admin client settings.</summary>
    /// <remarks>librdkafka builds an admin client as a producer, which asks brokers to auto-create any topic it requests
    /// metadata for: on a cluster with <c>auto.create.topics.enable=true</c> (Kafka's default) waiting for a deleted topic
    /// to disappear re-created it. Hence <c>allow.auto.create.topics=false</c>.</remarks>
    public static List<KeyValuePair<string, string>> Admin(string bootstrap) =>
        [new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-confluent-admin"), new("allow.auto.create.topics", "false")];

    private static List<KeyValuePair<string, string>> Common(string bootstrap, ClientSettings settings)
    {
        var config = new List<KeyValuePair<string, string>> { new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-confluent") };
        if (settings.SendBufferBytes is { } send) Set(config, "socket.send.buffer.bytes", send);
        if (settings.ReceiveBufferBytes is { } receive) Set(config, "socket.receive.buffer.bytes", receive);
        return config;
    }

    private static List<KeyValuePair<string, string>> Overridden(List<KeyValuePair<string, string>> config, ClientSettings settings)
    {
        foreach (var (key, value) in settings.Overrides) Set(config, key, value);
        return config;
    }

    private static void Set(List<KeyValuePair<string, string>> config, string key, int value) =>
        Set(config, key, value.ToString(CultureInfo.InvariantCulture));

    private static void Set(List<KeyValuePair<string, string>> config, string key, string value)
    {
        config.RemoveAll(pair => pair.Key == key);
        config.Add(new(key, value));
    }
}
