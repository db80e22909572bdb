using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// The embedded broker's CPU time, from <c>/proc/PID/stat</c> of its JVMs (summed over the nodes of a cluster), and a
/// topic's bytes on disk, from the partition folders (<c>TOPIC-N</c>) of its log directories (summed over every replica).
/// </summary>
/// <remarks>Only the segment files (<c>*.log</c>) count: Kafka preallocates the index files of the active segment
/// (10 MB each by default), which says nothing about the data. Linux only; elsewhere the CPU time is <see langword="null"/>.</remarks>
public sealed class EmbeddedBrokerProbe : IBrokerProbe
{
    // /proc reports CPU time in USER_HZ ticks, which the kernel fixes at 100 per second for user space on every architecture.
    private const double TicksPerSecond = 100;
    private readonly Func<IEnumerable<int>> _processIds;
    private int[]? _lastProcessIds;
    private readonly string[] _logDirectories;

    /// <summary>Creates a probe of one broker.</summary>
    /// <param name="processId">The broker JVM's process id.</param>
    /// <param name="logDirectory">The broker's <c>log.dirs</c> (a single folder).</param>
    public EmbeddedBrokerProbe(int processId, string logDirectory)
        : this([processId], [logDirectory ?? throw new ArgumentNullException(nameof(logDirectory))])
    {
    }

    /// <summary>Creates a probe of a cluster's nodes.</summary>
    /// <param name="processIds">The nodes' JVMs.</param>
    /// <param name="logDirectories">Their <c>log.dirs</c> (a single folder each).</param>
    public EmbeddedBrokerProbe(IReadOnlyList<int> processIds, IReadOnlyList<string> logDirectories)
    {
        ArgumentNullException.ThrowIfNull(processIds);
        ArgumentNullException.ThrowIfNull(logDirectories);
        int[] ids = [.. processIds];
        _processIds = () => ids;
        _logDirectories = [.. logDirectories];
    }

    /// <summary>A probe of a cluster whose nodes may be started again (new process ids) by a fault.</summary>
    internal EmbeddedBrokerProbe(Func<IEnumerable<int>> processIds, IReadOnlyList<string> logDirectories)
    {
        _processIds = processIds;
        _logDirectories = [.. logDirectories];
    }

    /// <inheritdoc />
    /// <remarks><see langword="null"/> once any node is gone: a sum without it would not compare with one before; and
    /// <see langword="null"/> when a node was started again since the last reading (a fault's restart): the new JVM's
    /// time starts from zero, and a difference across it would be meaningless (negative, once).</remarks>
    public TimeSpan? ReadCpuTime()
    {
        int[] pids = [.. _processIds()];
        var previous = Interlocked.Exchange(ref _lastProcessIds, pids);
        if (previous is not null && !previous.SequenceEqual(pids)) return null;
        var total = TimeSpan.Zero;
        foreach (var statFile in pids.Select(pid => $"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat"))
        {
            string stat;
            try
            {
                stat = File.ReadAllText(statFile);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return null;
            }
            if (ParseCpuTime(stat) is not { } cpu) return null;
            total += cpu;
        }
        return total;
    }

    /// <summary>utime + stime of a <c>/proc/PID/stat</c> line (fields 14 and 15; the command name, field 2, may hold
    /// spaces and parentheses, so fields are counted after its last ')').</summary>
    internal static TimeSpan? ParseCpuTime(string stat)
    {
        int end = stat.LastIndexOf(')');
        if (end < 0) return null;
        // After ") ": field 3 (state) is index 0, so utime (14) is index 11 and stime (15) index 12.
        var fields = stat[(end + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 13
            || !long.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out var user)
            || !long.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out var system))
            return null;
        return TimeSpan.FromSeconds((user + system) / TicksPerSecond);
    }

    /// <inheritdoc />
    public long? TopicBytesOnDisk(string topic)
    {
        ArgumentNullException.ThrowIfNull(topic);
        try
        {
            long total = 0;
            bool found = false;
            foreach (var folder in _logDirectories.Where(Directory.Exists).SelectMany(d => Directory.EnumerateDirectories(d, topic + "-*")))
            {
                // TOPIC-N exactly: not another topic whose name starts the same, nor a folder of a deleted topic (TOPIC-N.ID-delete).
                var partition = Path.GetFileName(folder).AsSpan(topic.Length + 1);
                if (partition.Length == 0 || partition.ContainsAnyExceptInRange('0', '9')) continue;
                found = true;
                foreach (var segment in Directory.EnumerateFiles(folder, "*.log")) total += new FileInfo(segment).Length;
            }
            return found ? total : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
