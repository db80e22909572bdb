using HdrHistogram;

namespace KafkaPerf.Measurement;

/// <summary>The headline numbers of a latency distribution, in microseconds.</summary>
/// <param name="Count">The number of recorded latencies.</param>
/// <param name="MeanMicros">The mean, in microseconds.</param>
/// <param name="StandardDeviationMicros">The population standard deviation, in microseconds.</param>
/// <param name="MinMicros">The smallest latency, in microseconds.</param>
/// <param name="P50Micros">The median (50th percentile), in microseconds.</param>
/// <param name="P90Micros">The 90th percentile, in microseconds.</param>
/// <param name="P95Micros">The 95th percentile, in microseconds.</param>
/// <param name="P99Micros">The 99th percentile, in microseconds.</param>
/// <param name="P999Micros">The 99.9th percentile, in microseconds.</param>
/// <param name="P9999Micros">The 99.99th percentile, in microseconds.</param>
/// <param name="MaxMicros">The largest latency, in microseconds.</param>
public sealed record LatencySummary(
    long Count,
    double MeanMicros,
    double StandardDeviationMicros,
    double MinMicros,
    double P50Micros,
    double P90Micros,
    double P95Micros,
    double P99Micros,
    double P999Micros,
    double P9999Micros,
    double MaxMicros)
{
    /// <summary>
    /// The summary of no latencies: <see cref="Count"/> is 0 and every value is NaN, so that "no data" cannot be
    /// mistaken for a zero latency.
    /// </summary>
    public static LatencySummary Empty { get; } = new(
        0, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN,
        double.NaN);

    /// <summary>Summarizes <paramref name="histogram"/>, converting its units to microseconds.</summary>
    /// <param name="histogram">The recorded latencies.</param>
    /// <param name="unitsPerMicrosecond">
    /// How many of the histogram's units make one microsecond: 1000 when it records nanoseconds.
    /// </param>
    /// <returns>The summary, or <see cref="Empty"/> when the histogram is empty.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="histogram"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="unitsPerMicrosecond"/> is not a positive finite number.
    /// </exception>
    public static LatencySummary From(HistogramBase histogram, double unitsPerMicrosecond)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        if (!(unitsPerMicrosecond > 0.0 && double.IsFinite(unitsPerMicrosecond)))
        {
            throw new ArgumentOutOfRangeException(
                nameof(unitsPerMicrosecond), unitsPerMicrosecond, "The units per microsecond must be positive and finite.");
        }

        if (histogram.TotalCount == 0)
        {
            return Empty;
        }

        return new LatencySummary(
            Count: histogram.TotalCount,
            MeanMicros: histogram.GetMean() / unitsPerMicrosecond,
            StandardDeviationMicros: histogram.GetStdDeviation() / unitsPerMicrosecond,
            MinMicros: histogram.Min() / unitsPerMicrosecond,
            P50Micros: histogram.GetValueAtPercentile(50.0) / unitsPerMicrosecond,
            P90Micros: histogram.GetValueAtPercentile(90.0) / unitsPerMicrosecond,
            P95Micros: histogram.GetValueAtPercentile(95.0) / unitsPerMicrosecond,
            P99Micros: histogram.GetValueAtPercentile(99.0) / unitsPerMicrosecond,
            P999Micros: histogram.GetValueAtPercentile(99.9) / unitsPerMicrosecond,
            P9999Micros: histogram.GetValueAtPercentile(99.99) / unitsPerMicrosecond,
            MaxMicros: histogram.GetMaxValue() / unitsPerMicrosecond);
    }
}
