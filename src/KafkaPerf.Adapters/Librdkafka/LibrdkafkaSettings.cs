using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>
/// The parity table of the <c>librdkafka</c> client: <c>confluent</c>'s own (<see cref="ConfluentSettings"/>), since both
/// hand the same keys to the same library, without Confluent.Kafka's <c>dotnet.*</c> keys (no Confluent.Kafka code runs
/// here to read them) and with a client id of its own; <c>-X librdkafka:key=value</c> applies last.
/// </summary>
internal static class LibrdkafkaSettings
{
    /// <summary>The client id, unless <c>-X librdkafka:client.id=…</c> says another.</summary>
    public const string ClientId = "kafkaperf-librdkafka";

    /// <summary>Producer settings, in the order they apply.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="settings">The variant's settings with this client's overrides.</param>
    /// <param name="security">How to reach the listener.</param>
    /// <returns>librdkafka's keys and values.</returns>
    public static List<KeyValuePair<string, string>> Producer(string bootstrap, ClientSettings settings, KafkaSecurity? security = null) =>
        Own(ConfluentSettings.Producer(bootstrap, settings, security: security), settings);

    /// <summary>Consumer settings, in the order they apply.</summary>
    /// <param name="bootstrap">Bootstrap servers.</param>
    /// <param name="groupId">The run's consumer group.</param>
    /// <param name="settings">The variant's settings with this client's overrides.</param>
    /// <param name="security">How to reach the listener.</param>
    /// <returns>librdkafka's keys and values.</returns>
    public static List<KeyValuePair<string, string>> Consumer(string bootstrap, string groupId, ClientSettings settings, KafkaSecurity? security = null) =>
        Own(ConfluentSettings.Consumer(bootstrap, groupId, settings, security: security), settings);

    /// <summary>Why an override cannot apply to this client, before librdkafka checks the rest; <see langword="null"/> when none.</summary>
    /// <param name="settings">The settings with this client's overrides.</param>
    /// <param name="name">The client's name, for the message.</param>
    /// <returns>One line, or <see langword="null"/>.</returns>
    public static string? Refused(ClientSettings settings, string name) =>
        settings.Overrides.Keys.FirstOrDefault(k => k.StartsWith("dotnet.", StringComparison.Ordinal)) is { } dotnet
            ? $"-X {name}:{dotnet}= is a setting of Confluent.Kafka, which the {name} client does not use: leave it out."
            : null;

    private static List<KeyValuePair<string, string>> Own(List<KeyValuePair<string, string>> config, ClientSettings settings)
    {
        config.RemoveAll(e => e.Key.StartsWith("dotnet.", StringComparison.Ordinal));
        if (!settings.Overrides.ContainsKey("client.id")) config.Set("client.id", ClientId);
        return config;
    }
}
