using HdrHistogram;
using HdrHistogram.Utilities;
using KafkaPerf.Measurement;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// Adds the measurements of the workers that ran one run together into the run's measurement: counts summed, histograms
/// added (never percentiles averaged), the time series added interval by interval, and a part per worker kept.
/// </summary>
public static class MeasurementMerge
{
    /// <summary>The run's measurement from its workers' parts.</summary>
    /// <param name="outcomes">One per worker, in share order: what each measured (<see cref="WorkerPart.Run"/>), or why it
    /// has nothing (<see cref="WorkerPart.Error"/>).</param>
    /// <returns>The merged measurement, with the parts; failed (with every worker's error) when any part failed.</returns>
    public static RunRecord Merge(IReadOnlyList<WorkerPart> outcomes)
    {
        ArgumentNullException.ThrowIfNull(outcomes);
        if (outcomes.Count == 0) throw new ArgumentException("A run needs at least one worker.", nameof(outcomes));
        var measured = outcomes.Where(o => o.Run is not null).Select(o => o.Run!).ToList();
        var errors = outcomes
            .Select(o => o.Error is { } e ? $"worker {o.Worker}: {e}" : null)
            .OfType<string>()
            .ToList();
        // Records of a worker that sent nothing back are not verified - nothing is known of them, so they are not counted
        // lost either - and the run fails: its figures never look complete.
        long unaccounted = outcomes.Where(o => o.Run is null).Sum(o => o.Records);
        var openReasons = outcomes
            .Select(o => o.Run is null ? $"worker {o.Worker} sent nothing back: its {o.Records} records are not verified"
                : o.Run.NotVerifiedReason is { } reason ? $"worker {o.Worker}: {reason}" : null)
            .OfType<string>()
            .ToList();
        long delivered = measured.Sum(m => m.Delivered), sent = measured.Sum(m => m.Sent);
        var merged = new RunRecord
        {
            // From the agreed start to the last worker's end: a worker that started late ends that much later.
            ElapsedSeconds = measured.Count == 0 ? double.NaN
                : outcomes.Where(o => o.Run is not null).Max(o => o.Run!.ElapsedSeconds + o.StartedLateSeconds),
            Sent = sent,
            Delivered = delivered,
            Received = measured.Sum(m => m.Received),
            Lost = measured.Sum(m => m.Lost),
            NotVerified = measured.Sum(m => m.NotVerified) + unaccounted,
            NotVerifiedReason = openReasons.Count == 0 ? null : string.Join("; ", openReasons),
            Duplicates = measured.Sum(m => m.Duplicates),
            Unexpected = measured.Sum(m => m.Unexpected),
            PayloadMismatches = measured.Sum(m => m.PayloadMismatches),
            LatencyHistogram = Histograms.Merge(measured.Select(m => m.LatencyHistogram)),
            LatencySampleStride = measured.Count == 0 ? 1 : measured.Max(m => m.LatencySampleStride),
            PrefetchEnabled = measured.Count > 0 && measured.All(m => m.PrefetchEnabled),
            Error = errors.Count == 0 ? null : string.Join("; ", errors),
            ProducerConfig = measured.Select(m => m.ProducerConfig).FirstOrDefault(c => c is not null),
            ConsumerConfig = measured.Select(m => m.ConsumerConfig).FirstOrDefault(c => c is not null),
            CountersPerMessage = Counters(measured),
            Resources = Resources(measured),
            OfferedRate = SumOrNull(measured, m => m.OfferedRate),
            AchievedRate = SumOrNull(measured, m => m.AchievedRate),
            ResponseTimeHistogram = Histograms.Merge(measured.Select(m => m.ResponseTimeHistogram)),
            ServiceTimeHistogram = Histograms.Merge(measured.Select(m => m.ServiceTimeHistogram)),
            SendDelayHistogram = Histograms.Merge(measured.Select(m => m.SendDelayHistogram)),
            Intervals = Intervals(measured),
            StartedAtUtc = measured.Select(m => m.StartedAtUtc).Where(s => s is not null).Min(),
            WarmupRecords = measured.Sum(m => m.WarmupRecords),
            Producers = outcomes.Sum(o => o.Producers),
            Consumers = measured.Sum(m => m.Consumers),
            ServiceTimeMissed = measured.Sum(m => m.ServiceTimeMissed),
            Workers = outcomes,
        };
        return merged;
    }

    /// <summary>Per-record counters weighted by each worker's records.</summary>
    private static Dictionary<string, double>? Counters(List<RunRecord> measured)
    {
        var withCounters = measured.Where(m => m.CountersPerMessage is { Count: > 0 }).ToList();
        if (withCounters.Count == 0) return null;
        double records = withCounters.Sum(Records);
        if (records <= 0) return null;
        return withCounters.SelectMany(m => m.CountersPerMessage!.Select(c => (c.Key, Value: c.Value * Records(m))))
            .GroupBy(c => c.Key, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Sum(c => c.Value) / records, StringComparer.Ordinal);
    }

    private static double Records(RunRecord m) => Math.Max(m.Sent, m.Received);

    /// <summary>The processes' resources added: CPU, collections and allocations of all of them.</summary>
    private static RunResources? Resources(List<RunRecord> measured)
    {
        var all = measured.Select(m => m.Resources).OfType<RunResources>().ToList();
        if (all.Count == 0) return null;
        return all[0] with
        {
            CpuUserSeconds = all.Sum(r => r.CpuUserSeconds),
            CpuSystemSeconds = all.Sum(r => r.CpuSystemSeconds),
            Gen0Collections = all.Sum(r => r.Gen0Collections),
            Gen1Collections = all.Sum(r => r.Gen1Collections),
            Gen2Collections = all.Sum(r => r.Gen2Collections),
            AllocatedBytes = all.Sum(r => r.AllocatedBytes),
            RssGrowthBytes = SumOrNull(all, r => r.RssGrowthBytes),
            RuntimeGcMillis = SumOrNull(all, r => r.RuntimeGcMillis),
            RuntimeGcCount = SumOrNull(all, r => r.RuntimeGcCount),
            RuntimeHeapUsedBytes = SumOrNull(all, r => r.RuntimeHeapUsedBytes),
            // Of the broker and the topic: every worker read the same broker, and each its own topic.
            BrokerCpuSeconds = all.Max(r => r.BrokerCpuSeconds), // null when no worker read it
            TopicBytesOnDisk = SumOrNull(all, r => r.TopicBytesOnDisk),
        };
    }

    /// <summary>The sum of the values that are there; null when none is (a figure no worker measured stays unmeasured).</summary>
    private static T? SumOrNull<TItem, T>(IEnumerable<TItem> items, Func<TItem, T?> value) where T : struct, System.Numerics.INumber<T>
    {
        T? sum = null;
        foreach (var item in items)
        {
            if (value(item) is { } v) sum = (sum ?? T.Zero) + v;
        }
        return sum;
    }

    /// <summary>The time series added interval by interval: the workers started together, so interval i is the same
    /// second everywhere (within the start's precision).</summary>
    private static List<IntervalRecord>? Intervals(List<RunRecord> measured)
    {
        var series = measured.Select(m => m.Intervals).OfType<IReadOnlyList<IntervalRecord>>().Where(s => s.Count > 0).ToList();
        if (series.Count == 0) return null;
        int length = series.Max(s => s.Count);
        var merged = new List<IntervalRecord>(length);
        for (int i = 0; i < length; i++)
        {
            var parts = series.Where(s => s.Count > i).Select(s => s[i]).ToList();
            var encoded = new Dictionary<string, byte[]>(StringComparer.Ordinal);
            merged.Add(new IntervalRecord
            {
                Index = i,
                StartSeconds = parts.Min(p => p.StartSeconds),
                LengthSeconds = parts.Max(p => p.LengthSeconds),
                Warmup = parts.All(p => p.Warmup),
                Sent = parts.Sum(p => p.Sent),
                Acknowledged = parts.Sum(p => p.Acknowledged),
                Consumed = parts.Sum(p => p.Consumed),
                MegabytesPerSecond = parts.Sum(p => p.MegabytesPerSecond),
                InFlight = parts.Sum(p => p.InFlight),
                Lag = SumOrNull(parts, p => p.Lag),
                ResponseTime = AddInterval(parts, IntervalRecord.ResponseMetric, encoded),
                ServiceTime = AddInterval(parts, IntervalRecord.ServiceMetric, encoded),
                SendDelay = AddInterval(parts, IntervalRecord.SendDelayMetric, encoded),
                EncodedHistograms = encoded,
            });
        }
        return merged;
    }

    private static IntervalLatency? AddInterval(List<IntervalRecord> parts, string metric, Dictionary<string, byte[]> encoded)
    {
        var histograms = parts.Select(p => p.EncodedHistograms?.GetValueOrDefault(metric)).OfType<byte[]>().Select(HistogramCodec.Decode);
        if (Histograms.Merge(histograms) is not { } sum) return null;
        encoded[metric] = HistogramCodec.Encode(sum);
        return new IntervalLatency(sum.TotalCount, sum.GetValueAtPercentile(50) / 1_000.0, sum.GetValueAtPercentile(99) / 1_000.0,
            sum.GetValueAtPercentile(99.9) / 1_000.0, sum.GetMaxValue() / 1_000.0);
    }
}
