namespace KafkaPerf.Clients;

/// <summary>The kind of group a run's consumers join (<c>--group</c>).</summary>
public enum ConsumerGroupKind
{
    /// <summary>A classic consumer group: each partition is read by one member, offsets are committed.</summary>
    Classic,

    /// <summary>A share group (KIP-932): members read the same partitions, each record is acquired by one member and
    /// acknowledged; acknowledged implicitly, by the next poll.</summary>
    Share,

    /// <summary>A share group whose members accept every record explicitly, one acknowledgement per record.</summary>
    ShareExplicit,
}

/// <summary>How <see cref="ConsumerGroupKind"/> is spelt on the command line, in labels and in results.</summary>
public static class ConsumerGroupKinds
{
    /// <summary>The text of a kind: <c>classic</c>, <c>share</c> or <c>share:explicit</c>.</summary>
    /// <param name="kind">The kind.</param>
    /// <returns>Its text.</returns>
    public static string ToText(this ConsumerGroupKind kind) => kind switch
    {
        ConsumerGroupKind.Share => "share",
        ConsumerGroupKind.ShareExplicit => "share:explicit",
        _ => "classic",
    };

    /// <summary>Whether the consumers are members of a share group.</summary>
    /// <param name="kind">The kind, or none (a classic group).</param>
    /// <returns><see langword="true"/> for either share mode.</returns>
    public static bool IsShare(this ConsumerGroupKind? kind) => kind is ConsumerGroupKind.Share or ConsumerGroupKind.ShareExplicit;

    /// <summary>Parses <c>classic</c>, <c>share</c>, <c>share:implicit</c> or <c>share:explicit</c>.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The kind.</returns>
    /// <exception cref="FormatException">Anything else.</exception>
    public static ConsumerGroupKind Parse(string text) => text?.Trim().ToLowerInvariant() switch
    {
        "classic" => ConsumerGroupKind.Classic,
        "share" or "share:implicit" => ConsumerGroupKind.Share,
        "share:explicit" => ConsumerGroupKind.ShareExplicit,
        _ => throw new FormatException($"Unknown group '{text}': use classic, share (acknowledged implicitly), share:explicit (each record acknowledged), or several, e.g. --group classic,share."),
    };
}
