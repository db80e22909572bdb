namespace KafkaPerf.Clients;

/// <summary>The rebalance protocol a classic-kind consumer group speaks (<c>--group-protocol</c>, <c>group.protocol</c>).</summary>
public enum GroupProtocol
{
    /// <summary>The classic protocol: members join, one of them assigns with a client-side assignor, everyone syncs.</summary>
    Classic,

    /// <summary>The consumer protocol of KIP-848: the broker assigns, each member reconciles on its own heartbeats, with no
    /// barrier across the group.</summary>
    Consumer,
}

/// <summary>A classic group's client-side assignor (<c>--assignor</c>, <c>partition.assignment.strategy</c>).</summary>
public enum GroupAssignor
{
    /// <summary>Eager; each member gets a contiguous range of every topic's partitions.</summary>
    Range,

    /// <summary>Eager; partitions dealt out one by one.</summary>
    RoundRobin,

    /// <summary>Incremental: only the partitions that move are revoked, in a second rebalance.</summary>
    CooperativeSticky,
}

/// <summary>How the group settings are spelt on the command line, in labels and in the clients' own keys.</summary>
public static class GroupSettingsText
{
    /// <summary>The client keys the consumer protocol refuses beside it (both clients reject them): its session and
    /// heartbeat are the broker's, its assignor too.</summary>
    public static IReadOnlyList<string> ClassicOnlyKeys { get; } = ["partition.assignment.strategy", "session.timeout.ms", "heartbeat.interval.ms"];

    /// <summary><c>classic</c> or <c>consumer</c>.</summary>
    /// <param name="protocol">The protocol.</param>
    /// <returns>Its text, as both clients' <c>group.protocol</c> take it.</returns>
    public static string ToText(this GroupProtocol protocol) => protocol == GroupProtocol.Consumer ? "consumer" : "classic";

    /// <summary><c>range</c>, <c>roundrobin</c> or <c>cooperative-sticky</c>: librdkafka's names.</summary>
    /// <param name="assignor">The assignor.</param>
    /// <returns>Its text.</returns>
    public static string ToText(this GroupAssignor assignor) => assignor switch
    {
        GroupAssignor.RoundRobin => "roundrobin",
        GroupAssignor.CooperativeSticky => "cooperative-sticky",
        _ => "range",
    };

    /// <summary>The Java client's class for an assignor.</summary>
    /// <param name="assignor">The assignor.</param>
    /// <returns>E.g. <c>org.apache.kafka.clients.consumer.CooperativeStickyAssignor</c>.</returns>
    public static string JavaClass(this GroupAssignor assignor) => "org.apache.kafka.clients.consumer." + assignor switch
    {
        GroupAssignor.RoundRobin => "RoundRobinAssignor",
        GroupAssignor.CooperativeSticky => "CooperativeStickyAssignor",
        _ => "RangeAssignor",
    };

    /// <summary>Parses <c>classic</c> or <c>consumer</c>.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The protocol.</returns>
    /// <exception cref="FormatException">Anything else.</exception>
    public static GroupProtocol ParseProtocol(string text) => text?.Trim().ToLowerInvariant() switch
    {
        "classic" => GroupProtocol.Classic,
        "consumer" => GroupProtocol.Consumer,
        _ => throw new FormatException($"Unknown group protocol '{text}': use classic or consumer (KIP-848), or both, e.g. --group-protocol classic,consumer."),
    };

    /// <summary>Parses <c>range</c>, <c>roundrobin</c> or <c>cooperative-sticky</c>.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The assignor.</returns>
    /// <exception cref="FormatException">Anything else.</exception>
    public static GroupAssignor ParseAssignor(string text) => text?.Trim().ToLowerInvariant() switch
    {
        "range" => GroupAssignor.Range,
        "roundrobin" or "round-robin" => GroupAssignor.RoundRobin,
        "cooperative-sticky" => GroupAssignor.CooperativeSticky,
        _ => throw new FormatException($"Unknown assignor '{text}': use range, roundrobin or cooperative-sticky, or several, e.g. --assignor range,cooperative-sticky."),
    };
}
