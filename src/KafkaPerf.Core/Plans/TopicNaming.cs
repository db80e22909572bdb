using System.Globalization;

namespace KafkaPerf.Plans;

/// <summary>Every run gets its own topic: <c>{prefix}__{client}__{messages}__{length}__{run}</c>, and every round of the
/// cluster warm-up too.</summary>
public static class TopicNaming
{
    /// <summary>Kafka's limit on topic name length.</summary>
    public const int MaxLength = 249;

    /// <summary>Builds the topic name of one run.</summary>
    /// <param name="prefix">The plan's prefix (default <c>kafkaperf</c>).</param>
    /// <param name="client">The client name.</param>
    /// <param name="messages">Messages in the run.</param>
    /// <param name="payloadBytes">Payload length in bytes.</param>
    /// <param name="run">The run's sequence number in the plan, unique, so no name is reused.</param>
    /// <returns>The topic name.</returns>
    /// <exception cref="ArgumentException">A part holds characters Kafka does not allow in topic names.</exception>
    public static string For(string prefix, string client, long messages, int payloadBytes, int run)
    {
        client = Part(client);
        if (!IsValid(prefix) || !IsValid(client))
            throw new ArgumentException($"Topic prefix '{prefix}' and client name '{client}' must be non-empty and use letters, digits, '.', '_' and '-' only.");
        var name = string.Join("__",
            prefix, client,
            messages.ToString(CultureInfo.InvariantCulture),
            payloadBytes.ToString(CultureInfo.InvariantCulture),
            run.ToString(CultureInfo.InvariantCulture));
        if (!IsValid(name))
            throw new ArgumentException($"'{name}' is not a valid topic name: use letters, digits, '.', '_' and '-' only, at most {MaxLength} characters.");
        return name;
    }

    /// <summary>Builds the topic name of a round of the cluster warm-up: <c>{prefix}__cluster-warmup__{client}__{round}</c>.</summary>
    /// <param name="prefix">The plan's prefix.</param>
    /// <param name="client">The client of the round.</param>
    /// <param name="round">The round, from 1, so no name is reused.</param>
    /// <returns>The topic name.</returns>
    /// <exception cref="ArgumentException">A part holds characters Kafka does not allow in topic names.</exception>
    public static string ForClusterWarmup(string prefix, string client, int round)
    {
        client = Part(client);
        var name = string.Join("__", prefix, "cluster-warmup", client, round.ToString(CultureInfo.InvariantCulture));
        if (!IsValid(prefix) || !IsValid(client) || !IsValid(name))
            throw new ArgumentException($"'{name}' is not a valid topic name: use letters, digits, '.', '_' and '-' only, at most {MaxLength} characters.");
        return name;
    }

    /// <summary>A client name as a part of a topic name: a client version's <c>@</c> (<c>confluent@2.15.1</c>), which Kafka
    /// does not allow, becomes <c>_v</c> (<c>confluent_v2.15.1</c>).</summary>
    private static string Part(string client) => client.Replace("@", "_v", StringComparison.Ordinal);

    /// <summary>Whether a topic prefix is usable.</summary>
    /// <param name="name">A topic name or prefix.</param>
    /// <returns><see langword="true"/> when Kafka accepts it.</returns>
    public static bool IsValid(string name) =>
        !string.IsNullOrEmpty(name) && name.Length <= MaxLength && name is not ("." or "..")
        && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-');
}
