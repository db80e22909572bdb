using System.Globalization;

namespace KafkaPerf.Clients;

/// <summary>What a fault does.</summary>
public enum FaultKind
{
    /// <summary>SIGKILL a node, as a crash would.</summary>
    Kill,

    /// <summary>SIGKILL a node, then start it again on the same data after a while.</summary>
    Restart,

    /// <summary>SIGSTOP a node, SIGCONT after a while: a "zombie" broker whose connections stay open.</summary>
    Pause,

    /// <summary>A graceful shutdown: the controlled shutdown moves leadership away first.</summary>
    Stop,

    /// <summary>Leadership of the run's partition moved to another in-sync replica through the Admin API.</summary>
    MoveLeader,

    /// <summary>A user's command (a cluster KafkaPerf did not start).</summary>
    Exec,

    /// <summary>The node cut off by the network while its process runs: its connections held open and silent, as a
    /// partition leaves them (from clients and peers, or from clients only); through the shaping proxies.</summary>
    Partition,

    /// <summary>The node cut off with its connections reset and new ones refused; through the shaping proxies.</summary>
    Isolate,

    /// <summary>The node's links slowed by an extra round trip; through the shaping proxies.</summary>
    Slow,
}

/// <summary>Which node a fault acts on.</summary>
public enum FaultTarget
{
    /// <summary>The node that leads the run's partition (partition 0) when the fault fires.</summary>
    Leader,

    /// <summary>The active controller (the KRaft quorum's leader) when the fault fires.</summary>
    Controller,

    /// <summary>A given node id.</summary>
    Node,
}

/// <summary>
/// One scheduled fault of a run, as <c>--fault</c> spells it: <c>kill:leader@10s</c>, <c>restart:node:2@10s+5s</c>,
/// <c>pause:leader@10s+5s</c>, <c>stop:controller@10s</c>, <c>move-leader@10s</c>, <c>exec@10s:COMMAND</c> (or
/// <c>exec@10s+30s:COMMAND</c>, with a time limit), and through the embedded cluster's shaping proxies
/// <c>partition:leader@10s+20s</c>, <c>partition:leader-from-clients@10s+20s</c>, <c>isolate:leader@10s+20s</c>,
/// <c>slow:leader@10s+20s:rtt=200ms</c> (without a length a network fault lasts to the end of the run). Times count from
/// the start of the run's measured part (after its warm-up).
/// </summary>
/// <param name="Kind">What it does.</param>
/// <param name="Target">Which node (not for <see cref="FaultKind.MoveLeader"/>, <see cref="FaultKind.Exec"/>).</param>
/// <param name="Node">The node id, for <see cref="FaultTarget.Node"/>.</param>
/// <param name="At">When it fires, from the start of the measured part.</param>
/// <param name="For">How long before it is undone (restart, pause); an exec's time limit.</param>
/// <param name="Command">The exec's command line, run by <c>/bin/sh -c</c>.</param>
public sealed record FaultSpec(FaultKind Kind, FaultTarget Target, int? Node, TimeSpan At, TimeSpan? For, string? Command)
{
    /// <summary>An exec's time limit when none is given.</summary>
    public static readonly TimeSpan DefaultExecLimit = TimeSpan.FromSeconds(60);

    private const string Examples = "kill:leader@10s, restart:leader@10s+5s, pause:node:2@10s+5s, stop:controller@10s, move-leader@10s, exec@10s:COMMAND, "
        + "partition:leader@10s+20s, partition:leader-from-clients@10s+20s, isolate:leader@10s+20s or slow:leader@10s+20s:rtt=200ms";

    /// <summary>A partition from clients only (<c>partition:leader-from-clients</c>): the node's peers still reach it.</summary>
    public bool ClientsOnly { get; init; }

    /// <summary>The round trip a <see cref="FaultKind.Slow"/> fault adds to the node's links.</summary>
    public TimeSpan? SlowRtt { get; init; }

    /// <summary>Whether the fault acts on the network through the shaping proxies (partition, isolate, slow).</summary>
    public bool IsNetwork => Kind is FaultKind.Partition or FaultKind.Isolate or FaultKind.Slow;

    /// <summary>Whether the fault takes a node out of the cluster for a while (kill, restart, pause, stop, and a partition
    /// or isolation from its peers).</summary>
    public bool TakesNodeDown => Kind is FaultKind.Kill or FaultKind.Restart or FaultKind.Pause or FaultKind.Stop or FaultKind.Isolate
        || (Kind == FaultKind.Partition && !ClientsOnly);

    /// <summary>When the node is back by the fault's own doing (restart, pause, a network fault with a length);
    /// <see langword="null"/> when it stays down until the cluster is healed after the run (kill, stop).</summary>
    public TimeSpan? BackAt => Kind is FaultKind.Restart or FaultKind.Pause || (IsNetwork && For is not null) ? At + For : null;

    /// <summary>An exec's time limit.</summary>
    public TimeSpan ExecLimit => For ?? DefaultExecLimit;

    /// <summary>Reads a fault as <c>--fault</c> spells it.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The fault.</returns>
    /// <exception cref="FormatException">It is not a fault; one line with the spellings that are.</exception>
    public static FaultSpec Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var value = text.Trim();
        string Problem(string what) => $"--fault '{text}' {what}: write e.g. {Examples}.";
        int at = value.IndexOf('@', StringComparison.Ordinal);
        if (at < 0) throw new FormatException(Problem("has no time (@10s)"));
        var head = value[..at];
        var rest = value[(at + 1)..];
        string? command = null;
        var kindText = head;
        string? targetText = null;
        int colon = head.IndexOf(':', StringComparison.Ordinal);
        if (colon >= 0)
        {
            kindText = head[..colon];
            targetText = head[(colon + 1)..];
        }
        var kind = kindText.ToLowerInvariant() switch
        {
            "kill" => FaultKind.Kill,
            "restart" => FaultKind.Restart,
            "pause" => FaultKind.Pause,
            "stop" => FaultKind.Stop,
            "move-leader" => FaultKind.MoveLeader,
            "exec" => FaultKind.Exec,
            "partition" => FaultKind.Partition,
            "isolate" => FaultKind.Isolate,
            "slow" => FaultKind.Slow,
            _ => throw new FormatException(Problem($"has an unknown kind '{kindText}' (kill, restart, pause, stop, move-leader, exec, partition, isolate, slow)")),
        };
        bool clientsOnly = false;
        if (targetText is not null && targetText.EndsWith("-from-clients", StringComparison.OrdinalIgnoreCase))
        {
            if (kind != FaultKind.Partition) throw new FormatException(Problem($"cuts a node from clients only, which only partition does (partition:{targetText}@…)"));
            clientsOnly = true;
            targetText = targetText[..^"-from-clients".Length];
        }
        TimeSpan? slowRtt = null;
        if (kind == FaultKind.Slow)
        {
            int shapeStart = rest.IndexOf(':', StringComparison.Ordinal);
            var shape = shapeStart < 0 ? string.Empty : rest[(shapeStart + 1)..].Trim();
            if (!shape.StartsWith("rtt=", StringComparison.OrdinalIgnoreCase))
                throw new FormatException(Problem("says not how slow (slow:leader@10s+20s:rtt=200ms)"));
            slowRtt = ParseTime(shape[4..]);
            if (slowRtt is not { } extra || extra <= TimeSpan.Zero)
                throw new FormatException(Problem($"has the round trip '{shape[4..]}', which is not a positive time such as 200ms"));
            rest = rest[..shapeStart];
        }
        if (kind == FaultKind.Exec)
        {
            int commandStart = rest.IndexOf(':', StringComparison.Ordinal);
            if (commandStart < 0 || string.IsNullOrWhiteSpace(rest[(commandStart + 1)..])) throw new FormatException(Problem("has no command (exec@10s:COMMAND)"));
            command = rest[(commandStart + 1)..].Trim();
            rest = rest[..commandStart];
        }
        if (kind is FaultKind.Exec or FaultKind.MoveLeader && targetText is not null)
            throw new FormatException(Problem($"names a node, and {kindText} acts on the run's partition or runs a command"));
        var target = FaultTarget.Leader;
        int? node = null;
        if (kind is not (FaultKind.Exec or FaultKind.MoveLeader))
        {
            if (targetText is null) throw new FormatException(Problem("names no node (leader, controller or node:N)"));
            var t = targetText.ToLowerInvariant();
            if (t == "leader") target = FaultTarget.Leader;
            else if (t == "controller") target = FaultTarget.Controller;
            else if (t.StartsWith("node:", StringComparison.Ordinal) && int.TryParse(t[5..], NumberStyles.None, CultureInfo.InvariantCulture, out int id) && id >= 1)
            {
                target = FaultTarget.Node;
                node = id;
            }
            else throw new FormatException(Problem($"names the node '{targetText}', which is none of leader, controller or node:N (N from 1)"));
        }
        int plus = rest.IndexOf('+', StringComparison.Ordinal);
        var atText = plus < 0 ? rest : rest[..plus];
        var forText = plus < 0 ? null : rest[(plus + 1)..];
        var when = ParseTime(atText) ?? throw new FormatException(Problem($"has the time '{atText}', which is not a time such as 10s, 500ms or 1m"));
        TimeSpan? length = null;
        if (forText is not null)
        {
            length = ParseTime(forText) ?? throw new FormatException(Problem($"has the length '{forText}', which is not a time such as 5s"));
            if (length <= TimeSpan.Zero) throw new FormatException(Problem("has a length that is not positive"));
        }
        if (kind is FaultKind.Restart or FaultKind.Pause && length is null)
            throw new FormatException(Problem($"says when the node goes but not for how long: write {kindText}:{targetText}@{atText}+5s"));
        if (kind is FaultKind.Kill or FaultKind.Stop or FaultKind.MoveLeader && length is not null)
            throw new FormatException(Problem($"has a length, and {kindText} is not undone during the run (restart:…@10s+5s starts a killed node again)"));
        return new FaultSpec(kind, target, node, when, length, command) { ClientsOnly = clientsOnly, SlowRtt = slowRtt };
    }

    /// <summary>Whether a fault as <c>--fault</c> spells it acts on the network (false for one that is not a fault: the
    /// plan's checks say why).</summary>
    /// <param name="text">The text.</param>
    /// <returns>Whether it is a partition, an isolation or a slow link.</returns>
    public static bool IsNetworkText(string text)
    {
        try
        {
            return Parse(text).IsNetwork;
        }
        catch (FormatException)
        {
            return false;
        }
    }

    /// <summary>The canonical spelling of a fault, or the text as given when it is not one (the plan's checks then say
    /// why).</summary>
    internal static string TryCanonical(string text) => CanonicalOr(text, Parse);

    /// <summary>What <paramref name="parse"/> makes of <paramref name="text"/>, written back; the text as given when it
    /// cannot be parsed (a plan's checks then say why).</summary>
    internal static string CanonicalOr(string text, Func<string, object> parse)
    {
        try
        {
            return parse(text).ToString()!;
        }
        catch (FormatException)
        {
            return text;
        }
    }

    /// <summary>The fault as <c>--fault</c> spells it (parsed back to an equal fault).</summary>
    /// <returns>The text.</returns>
    public override string ToString()
    {
        var kind = Kind == FaultKind.MoveLeader ? "move-leader" : Kind.ToString().ToLowerInvariant();
        var target = Kind is FaultKind.MoveLeader or FaultKind.Exec ? string.Empty
            : ":" + (Target == FaultTarget.Node ? $"node:{Node!.Value.ToString(CultureInfo.InvariantCulture)}" : Target.ToString().ToLowerInvariant())
            + (ClientsOnly ? "-from-clients" : string.Empty);
        var length = For is { } f ? "+" + FormatTime(f) : string.Empty;
        var command = Kind == FaultKind.Exec ? ":" + Command : SlowRtt is { } rtt ? ":rtt=" + FormatTime(rtt) : string.Empty;
        return $"{kind}{target}@{FormatTime(At)}{length}{command}";
    }

    /// <summary>What the fault does, in words, e.g. "kill the leader of the run's partition".</summary>
    public string Describe() => Kind switch
    {
        FaultKind.Kill => $"SIGKILL {Who}",
        FaultKind.Restart => $"SIGKILL {Who}, start it again {FormatTime(For!.Value)} later",
        FaultKind.Pause => $"SIGSTOP {Who}, SIGCONT {FormatTime(For!.Value)} later",
        FaultKind.Stop => $"stop {Who} gracefully",
        FaultKind.MoveLeader => "move the leadership of the run's partition to another in-sync replica",
        FaultKind.Partition => $"cut {Who} off from {(ClientsOnly ? "clients" : "clients and peers")}, its connections held open and silent{Until}",
        FaultKind.Isolate => $"cut {Who} off from clients and peers, its connections reset and new ones refused{Until}",
        FaultKind.Slow => $"add {FormatTime(SlowRtt!.Value)} to the round trip of {Who}'s links{Until}",
        _ => $"run '{Command}' (time limit {FormatTime(ExecLimit)})",
    };

    private string Until => For is { } f ? $", healed {FormatTime(f)} later" : " to the end of the run";

    private string Who => Target switch
    {
        FaultTarget.Leader => "the leader of the run's partition",
        FaultTarget.Controller => "the active controller",
        _ => $"node {Node}",
    };

    /// <summary>Reads <c>10s</c>, <c>500ms</c>, <c>1.5m</c>; <see langword="null"/> when it is not a non-negative time.</summary>
    internal static TimeSpan? ParseTime(string text)
    {
        var t = text.Trim().ToLowerInvariant();
        (string number, double scale) = t.EndsWith("ms", StringComparison.Ordinal) ? (t[..^2], 0.001)
            : t.EndsWith('s') ? (t[..^1], 1.0)
            : t.EndsWith('m') ? (t[..^1], 60.0)
            : (string.Empty, 0);
        if (number.Length == 0 || !double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double amount)
            || !double.IsFinite(amount) || amount * scale > TimeSpan.FromDays(1).TotalSeconds) return null;
        return TimeSpan.FromSeconds(amount * scale);
    }

    internal static string FormatTime(TimeSpan time) =>
        time.TotalMilliseconds % 1000 == 0 ? string.Create(CultureInfo.InvariantCulture, $"{time.TotalSeconds:0}s")
        : string.Create(CultureInfo.InvariantCulture, $"{time.TotalMilliseconds:0.###}ms");
}
