using System.Globalization;
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
    public static List<KeyValuePair<string, string>> Producer(string bootstrap, ClientSettings settings)
    {
        var config = Common(bootstrap, settings);
        if (settings.Acks is { } acks) Set(config, "acks", acks switch { AcksMode.None => "0", AcksMode.Leader => "1", _ => "all" });
        if (settings.LingerMs is { } linger) Set(config, "linger.ms", linger);
        if (settings.BatchSizeBytes is { } batch) Set(config, "batch.size", batch);
        if (settings.MaxInFlight is { } inFlight) Set(config, "max.in.flight.requests.per.connection", inFlight);
        if (settings.Compression is { } codec) Set(config, "compression.type", codec.ToString().ToLowerInvariant());
        // librdkafka's default is no idempotence; the Java client's is idempotence whenever acks=all and at most 5 requests
        // are in flight. Off here, so that the two clients do the same work; -X java:enable.idempotence=true turns it on.
        Set(config, "enable.idempotence", "false");
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
        return Overridden(config, settings);
    }

    /// <summary>Flattens settings into <c>key, value, key, value, …</c> for the Java side.</summary>
    public static string[] Flatten(List<KeyValuePair<string, string>> config) => [.. config.SelectMany(pair => new[] { pair.Key, pair.Value })];

    private static List<KeyValuePair<string, string>> Common(string bootstrap, ClientSettings settings)
    {
        var config = new List<KeyValuePair<string, string>> { new("bootstrap.servers", bootstrap), new("client.id", "kafkaperf-java") };
        if (settings.SendBufferBytes is { } send) Set(config, "send.buffer.bytes", send);
        if (settings.ReceiveBufferBytes is { } receive) Set(config, "receive.buffer.bytes", receive);
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
