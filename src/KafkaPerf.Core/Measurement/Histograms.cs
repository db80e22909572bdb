using System.Runtime.CompilerServices;
using HdrHistogram;

namespace KafkaPerf.Measurement;

/// <summary>
/// The one histogram layout every latency in KafkaPerf is recorded in: HdrHistogram.NET's, from 1 ns to one hour with
/// three significant digits, so that runs, intervals and workers merge exactly (histograms added, never percentiles
/// averaged) and every histogram can be written to and read from HdrHistogram's log format.
/// </summary>
/// <remarks>HdrHistogram.NET throws for a value above the highest trackable one; <see cref="RecordClamped(HistogramBase, long)"/> clamps
/// instead (a latency over an hour is recorded as an hour). Single-writer histograms (<see cref="Create"/>) record in
/// about 5 ns; <see cref="CreateRecorder"/> makes a recorder that many threads write to without a lock (about 10 ns)
/// while one reader takes interval histograms from it (docs/BENCHMARKS.md).</remarks>
public static class Histograms
{
    /// <summary>The largest value kept as is: one hour in nanoseconds.</summary>
    public const long HighestTrackableValue = 3_600_000_000_000;

    /// <summary>Decimal digits of precision of every value.</summary>
    public const int SignificantDigits = 3;

    /// <summary>A new, empty single-writer histogram of nanoseconds.</summary>
    /// <returns>The histogram.</returns>
    public static LongHistogram Create() => new(1, HighestTrackableValue, SignificantDigits);

    /// <summary>A recorder of nanoseconds: any number of threads record into it wait-free; one reader at a time takes
    /// what was recorded since its last call with <see cref="Recorder.GetIntervalHistogramInto"/>.</summary>
    /// <returns>The recorder.</returns>
    public static Recorder CreateRecorder() =>
        HistogramFactory.With64BitBucketSize().WithValuesFrom(1).WithValuesUpTo(HighestTrackableValue).WithPrecisionOf(SignificantDigits)
            .WithThreadSafeReads().Create();

    /// <summary>Records a value, negatives as 0 and values above <see cref="HighestTrackableValue"/> as that.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <param name="nanoseconds">The value.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void RecordClamped(this HistogramBase histogram, long nanoseconds)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        histogram.RecordValue(nanoseconds < 0 ? 0 : nanoseconds > HighestTrackableValue ? HighestTrackableValue : nanoseconds);
    }

    /// <summary>Records a value into a recorder, clamped as <see cref="RecordClamped(HistogramBase, long)"/>.</summary>
    /// <param name="recorder">The recorder.</param>
    /// <param name="nanoseconds">The value.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void RecordClamped(this Recorder recorder, long nanoseconds)
    {
        ArgumentNullException.ThrowIfNull(recorder);
        recorder.RecordValue(nanoseconds < 0 ? 0 : nanoseconds > HighestTrackableValue ? HighestTrackableValue : nanoseconds);
    }

    /// <summary>The exact sum of histograms (a new histogram); <see langword="null"/> when there is none with values.</summary>
    /// <param name="histograms">Histograms of this layout.</param>
    /// <returns>The merged histogram.</returns>
    public static LongHistogram? Merge(IEnumerable<HistogramBase?> histograms)
    {
        ArgumentNullException.ThrowIfNull(histograms);
        LongHistogram? merged = null;
        foreach (var histogram in histograms)
        {
            if (histogram is not { TotalCount: > 0 }) continue;
            merged ??= Create();
            merged.Add(histogram);
        }
        return merged;
    }

    /// <summary>The smallest recorded value (the lowest value of its bucket); 0 when empty.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <returns>The value.</returns>
    public static long Min(this HistogramBase histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        foreach (var value in histogram.RecordedValues()) return histogram.LowestEquivalentValue(value.ValueIteratedTo);
        return 0;
    }

    /// <summary>Calls <paramref name="visit"/> once per non-empty bucket, in ascending order, with the value that stands
    /// for it and how many values it holds: how a histogram is replayed into another recorder.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <param name="visit">Receives value and count.</param>
    public static void ForEachRecorded(this HistogramBase histogram, Action<long, long> visit)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        ArgumentNullException.ThrowIfNull(visit);
        foreach (var value in histogram.RecordedValues()) visit(value.ValueIteratedTo, value.CountAtValueIteratedTo);
    }
}
