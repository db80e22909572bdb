using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>
/// Medians of the resources used by one client's measured runs in one cell (<see cref="RunResources"/>), with the
/// figures per message that compare across cells. A figure is <see langword="null"/> when no run recorded it.
/// </summary>
public sealed record CellResources
{
    /// <summary>Client CPU seconds per run, user + system.</summary>
    public double? CpuSeconds { get; init; }

    /// <summary>Client user-mode CPU seconds per run.</summary>
    public double? CpuUserSeconds { get; init; }

    /// <summary>Client kernel CPU seconds per run.</summary>
    public double? CpuSystemSeconds { get; init; }

    /// <summary>Client CPU milliseconds (user + system) per 1 000 messages.</summary>
    public double? CpuMillisPerThousandMessages { get; init; }

    /// <summary>Client CPU time over elapsed time, in % of one core (200 % = two cores busy throughout).</summary>
    public double? CpuPercentOfCore { get; init; }

    /// <summary>.NET bytes allocated per message.</summary>
    public double? AllocatedBytesPerMessage { get; init; }

    /// <summary>.NET generation-0 collections per run.</summary>
    public double? Gen0Collections { get; init; }

    /// <summary>.NET generation-1 collections per run.</summary>
    public double? Gen1Collections { get; init; }

    /// <summary>.NET generation-2 collections per run.</summary>
    public double? Gen2Collections { get; init; }

    /// <summary>How much the client's process's resident memory grew per run, in bytes: native memory included.</summary>
    public double? RssGrowthBytes { get; init; }

    /// <summary>Collection milliseconds of the client's own runtime (the JVM) per run.</summary>
    public double? RuntimeGcMillis { get; init; }

    /// <summary>Heap in use in the client's own runtime at the end of a run, in bytes.</summary>
    public double? RuntimeHeapUsedBytes { get; init; }

    /// <summary>The client's own counters (e.g. <c>jni.calls</c>) per message.</summary>
    public IReadOnlyDictionary<string, double>? CountersPerMessage { get; init; }

    /// <summary>Broker CPU seconds per run.</summary>
    public double? BrokerCpuSeconds { get; init; }

    /// <summary>Broker CPU milliseconds per 1 000 messages.</summary>
    public double? BrokerCpuMillisPerThousandMessages { get; init; }

    /// <summary>Bytes of the run's topic on the broker's disk.</summary>
    public double? TopicBytesOnDisk { get; init; }

    /// <summary>Bytes on disk per payload byte sent.</summary>
    public double? DiskBytesPerPayloadByte { get; init; }

    /// <summary>CPU seconds per run of every shaping proxy's threads (<c>--network</c>), which share the machine with the
    /// clients and the broker: over the timed section (<see cref="RunResources.ProxyCpuSeconds"/>), or over the whole run
    /// for runs on workers; <see langword="null"/> without a shaped network or off Linux.</summary>
    public double? ProxyCpuSeconds { get; init; }

    /// <summary>The medians of <paramref name="runs"/>' resources; <see langword="null"/> when none recorded any.</summary>
    /// <param name="runs">Successful measured runs of one client in one cell.</param>
    /// <returns>The medians.</returns>
    public static CellResources? Of(IReadOnlyList<RunRecord> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var measured = runs.Where(r => r.Resources is not null).ToList();
        if (measured.Count == 0) return null;
        double? Median(Func<RunRecord, RunResources, double?> figure) =>
            MedianOf(measured.Select(r => figure(r, r.Resources!)));
        return new CellResources
        {
            CpuSeconds = Median((_, x) => x.CpuSeconds),
            CpuUserSeconds = Median((_, x) => x.CpuUserSeconds),
            CpuSystemSeconds = Median((_, x) => x.CpuSystemSeconds),
            CpuMillisPerThousandMessages = Median((r, x) => PerThousand(x.CpuSeconds, r.MessageCount)),
            CpuPercentOfCore = Median((r, x) => r.ElapsedSeconds > 0 ? x.CpuSeconds / r.ElapsedSeconds * 100 : null),
            AllocatedBytesPerMessage = Median((r, x) => r.MessageCount > 0 ? x.AllocatedBytes / (double)r.MessageCount : null),
            Gen0Collections = Median((_, x) => x.Gen0Collections),
            Gen1Collections = Median((_, x) => x.Gen1Collections),
            Gen2Collections = Median((_, x) => x.Gen2Collections),
            RssGrowthBytes = Median((_, x) => x.RssGrowthBytes),
            RuntimeGcMillis = Median((_, x) => x.RuntimeGcMillis),
            RuntimeHeapUsedBytes = Median((_, x) => x.RuntimeHeapUsedBytes),
            CountersPerMessage = CounterMedians(measured),
            BrokerCpuSeconds = Median((_, x) => x.BrokerCpuSeconds),
            BrokerCpuMillisPerThousandMessages = Median((r, x) => x.BrokerCpuSeconds is { } s ? PerThousand(s, r.MessageCount) : null),
            TopicBytesOnDisk = Median((_, x) => x.TopicBytesOnDisk),
            DiskBytesPerPayloadByte = Median((_, x) => x.DiskBytesPerPayloadByte),
            ProxyCpuSeconds = Median((r, x) => x.ProxyCpuSeconds ?? r.Network?.ProxyCpuSeconds),
        };
    }

    private static double? PerThousand(double seconds, long messages) => messages > 0 ? seconds * 1000 / messages * 1000 : null;

    private static double? MedianOf(IEnumerable<double?> values)
    {
        var known = values.OfType<double>().Where(v => !double.IsNaN(v)).ToArray();
        return known.Length == 0 ? null : Summary.Of(known).Median;
    }

    private static SortedDictionary<string, double>? CounterMedians(List<RunRecord> runs)
    {
        var names = runs.SelectMany(r => r.CountersPerMessage?.Keys ?? []).Distinct(StringComparer.Ordinal).ToList();
        if (names.Count == 0) return null;
        var medians = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var name in names)
        {
            if (MedianOf(runs.Select(r => r.CountersPerMessage?.TryGetValue(name, out var v) == true ? v : (double?)null)) is { } median)
                medians[name] = median;
        }
        return medians;
    }
}
