using System.Globalization;

namespace KafkaPerf.Adapters.Profiling;

/// <summary>
/// Reads the samples of <c>perf script -F comm,tid,time,ip,sym,dso --ns</c>: a header line per sample (thread name, thread
/// id, time in seconds), then one line per frame, innermost first (<c>address symbol (file)</c>), then a blank line.
/// </summary>
internal static class PerfScriptReader
{
    /// <summary>One sample.</summary>
    /// <param name="Thread">The thread's name (up to 15 characters, as the kernel keeps it).</param>
    /// <param name="Seconds">When, on <c>CLOCK_MONOTONIC</c>.</param>
    /// <param name="Frames">Innermost first.</param>
    internal readonly record struct Sample(string Thread, double Seconds, IReadOnlyList<(string Symbol, string Dso)> Frames);

    /// <summary>The samples of a <c>perf script</c> output, as it is read.</summary>
    /// <param name="reader">The output.</param>
    public static IEnumerable<Sample> Read(TextReader reader)
    {
        string? thread = null;
        double seconds = 0;
        var frames = new List<(string, string)>();
        while (reader.ReadLine() is { } line)
        {
            if (line.Length == 0)
            {
                if (thread is not null) yield return new Sample(thread, seconds, frames.ToArray());
                thread = null;
                frames.Clear();
                continue;
            }
            if (line[0] is '\t' or ' ')
            {
                if (thread is not null && Frame(line) is { } frame) frames.Add(frame);
                continue;
            }
            if (thread is not null) yield return new Sample(thread, seconds, frames.ToArray());
            frames.Clear();
            (thread, seconds) = Header(line);
        }
        if (thread is not null) yield return new Sample(thread, seconds, frames.ToArray());
    }

    /// <summary><c>rdk:broker1 18676 64217.969828123:</c>: the name may hold spaces, the last two fields are the thread id
    /// and the time.</summary>
    private static (string? Thread, double Seconds) Header(string line)
    {
        var trimmed = line.TrimEnd();
        int timeStart = trimmed.LastIndexOf(' ');
        if (timeStart < 0 || !trimmed.EndsWith(':')) return (null, 0);
        if (!double.TryParse(trimmed.AsSpan(timeStart + 1, trimmed.Length - timeStart - 2), NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds))
            return (null, 0);
        var rest = trimmed[..timeStart].TrimEnd();
        int tidStart = rest.LastIndexOf(' ');
        return (tidStart < 0 ? rest : rest[..tidStart].Trim(), seconds);
    }

    /// <summary><c>	    7f5190134c10 rd_kafka_msg_new (/path/librdkafka.so)</c>; a symbol may hold spaces and parentheses.</summary>
    private static (string Symbol, string Dso)? Frame(string line)
    {
        var trimmed = line.Trim();
        int space = trimmed.IndexOf(' ');
        if (space < 0) return null;
        var rest = trimmed[(space + 1)..];
        int dsoStart = rest.LastIndexOf(" (", StringComparison.Ordinal);
        if (dsoStart < 0 || !rest.EndsWith(')')) return (rest, string.Empty);
        var symbol = rest[..dsoStart];
        // perf adds "+0x1f" to a symbol with the offset field; without it some versions still print it.
        int plus = symbol.LastIndexOf("+0x", StringComparison.Ordinal);
        if (plus > 0 && !symbol.Contains("::", StringComparison.Ordinal)) symbol = symbol[..plus];
        return (symbol, rest[(dsoStart + 2)..^1]);
    }
}
