namespace KafkaPerf.Clients;

/// <summary>What a membership event does to the run's consumer group.</summary>
public enum GroupEventKind
{
    /// <summary>A new member joins (created before the run, it subscribes at the event).</summary>
    Join,

    /// <summary>A member closes cleanly: it leaves the group (a static member does not: it is expected back).</summary>
    Leave,

    /// <summary>A member stops polling and never leaves: the group notices by its session timeout.</summary>
    Crash,

    /// <summary>A member closes and comes back after a while, as a deploy does (with static membership, the same
    /// instance id).</summary>
    Restart,

    /// <summary>Every member restarted one after another, each once the one before has partitions again: a rolling deploy.</summary>
    Roll,

    /// <summary>A member is busy for a while: it stops reading from its next record on, as a slow batch or a long pause of
    /// the application does, and stays in the group (its client goes on heartbeating).</summary>
    Busy,
}

/// <summary>
/// One membership event of a run at a rate, as <c>--fault</c> spells it: <c>join:consumer@10s</c>,
/// <c>leave:consumer@10s</c>, <c>crash:consumer@10s</c>, <c>restart:consumer@10s+2s</c>, <c>roll:consumers@10s</c>
/// (<c>roll:consumers@10s+1s</c>: each member away that long), <c>busy:consumer@10s+3s</c>. Leave, crash, restart and busy
/// act on the live member with the lowest number (members are numbered from 1 in the order they joined).
/// Times count from the start of the run's measured part, as a fault's.
/// </summary>
/// <param name="Kind">What it does.</param>
/// <param name="At">When it fires.</param>
/// <param name="For">How long a restarted member stays away (none: it is created again at once), or how long a busy one
/// is busy.</param>
public sealed record GroupEventSpec(GroupEventKind Kind, TimeSpan At, TimeSpan? For)
{
    private const string Examples = "join:consumer@10s, leave:consumer@10s, crash:consumer@10s, restart:consumer@10s+2s, roll:consumers@10s or busy:consumer@10s+3s";

    /// <summary>Whether <c>--fault</c> text names a membership event (its target is <c>consumer</c> or <c>consumers</c>)
    /// rather than a node fault.</summary>
    /// <param name="text">The text.</param>
    /// <returns><see langword="true"/> for a membership event, well spelt or not.</returns>
    public static bool IsGroupEventText(string? text)
    {
        if (text is null) return false;
        int at = text.IndexOf('@', StringComparison.Ordinal);
        var head = (at < 0 ? text : text[..at]).Trim();
        int colon = head.IndexOf(':', StringComparison.Ordinal);
        var target = colon < 0 ? string.Empty : head[(colon + 1)..];
        var kind = colon < 0 ? head : head[..colon];
        return target.Equals("consumer", StringComparison.OrdinalIgnoreCase) || target.Equals("consumers", StringComparison.OrdinalIgnoreCase)
            || kind.Equals("join", StringComparison.OrdinalIgnoreCase) || kind.Equals("leave", StringComparison.OrdinalIgnoreCase)
            || kind.Equals("crash", StringComparison.OrdinalIgnoreCase) || kind.Equals("roll", StringComparison.OrdinalIgnoreCase)
            || kind.Equals("busy", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>Reads a membership event as <c>--fault</c> spells it.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The event.</returns>
    /// <exception cref="FormatException">It is not one; one line with the spellings that are.</exception>
    public static GroupEventSpec Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var value = text.Trim();
        string Problem(string what) => $"--fault '{text}' {what}: write e.g. {Examples}.";
        int at = value.IndexOf('@', StringComparison.Ordinal);
        if (at < 0) throw new FormatException(Problem("has no time (@10s)"));
        var head = value[..at];
        int colon = head.IndexOf(':', StringComparison.Ordinal);
        var kindText = colon < 0 ? head : head[..colon];
        var target = colon < 0 ? string.Empty : head[(colon + 1)..];
        var kind = kindText.ToLowerInvariant() switch
        {
            "join" => GroupEventKind.Join,
            "leave" => GroupEventKind.Leave,
            "crash" => GroupEventKind.Crash,
            "restart" => GroupEventKind.Restart,
            "roll" => GroupEventKind.Roll,
            "busy" => GroupEventKind.Busy,
            _ => throw new FormatException(Problem($"has an unknown membership event '{kindText}' (join, leave, crash, restart, roll, busy)")),
        };
        var expected = kind == GroupEventKind.Roll ? "consumers" : "consumer";
        if (!target.Equals(expected, StringComparison.OrdinalIgnoreCase))
            throw new FormatException(Problem($"acts on '{(target.Length == 0 ? "nothing" : target)}': a {kindText.ToLowerInvariant()} acts on the group's members ({kindText.ToLowerInvariant()}:{expected}@…)"));
        var when = value[(at + 1)..];
        TimeSpan? length = null;
        int plus = when.IndexOf('+', StringComparison.Ordinal);
        if (plus >= 0)
        {
            if (kind is not (GroupEventKind.Restart or GroupEventKind.Roll or GroupEventKind.Busy))
                throw new FormatException(Problem($"has a length, which only restart, roll and busy take (how long a member stays away or is busy)"));
            length = FaultSpec.ParseTime(when[(plus + 1)..]) ?? throw new FormatException(Problem($"has the length '{when[(plus + 1)..]}', which is not a time such as 2s"));
            when = when[..plus];
        }
        var time = FaultSpec.ParseTime(when) ?? throw new FormatException(Problem($"has the time '{when}', which is not a time such as 10s"));
        if (time < TimeSpan.Zero || length < TimeSpan.Zero) throw new FormatException(Problem("has a negative time"));
        if (kind == GroupEventKind.Busy && !(length > TimeSpan.Zero))
            throw new FormatException(Problem("has no length: say how long the member is busy (busy:consumer@10s+3s)"));
        return new GroupEventSpec(kind, time, length);
    }

    /// <summary>The event as <c>--fault</c> spells it, e.g. <c>restart:consumer@10s+2s</c>.</summary>
    /// <returns>The text.</returns>
    public override string ToString() =>
        $"{Kind.ToString().ToLowerInvariant()}:{(Kind == GroupEventKind.Roll ? "consumers" : "consumer")}@{FaultSpec.FormatTime(At)}{(For is { } length ? "+" + FaultSpec.FormatTime(length) : string.Empty)}";

    /// <summary>The canonical spelling, or the text as given when it is not an event (the plan's checks then say why).</summary>
    internal static string TryCanonical(string text) => FaultSpec.CanonicalOr(text, Parse);
}
