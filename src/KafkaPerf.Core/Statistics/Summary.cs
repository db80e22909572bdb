using System.Globalization;

namespace KafkaPerf.Statistics;

/// <summary>Descriptive statistics of a set of repeated measurements (for example one value per benchmark run).</summary>
/// <param name="Count">The number of samples.</param>
/// <param name="Min">The smallest sample.</param>
/// <param name="Max">The largest sample.</param>
/// <param name="Mean">The arithmetic mean.</param>
/// <param name="StandardDeviation">The sample standard deviation (n − 1 denominator); 0 when <paramref name="Count"/> is 1.</param>
/// <param name="CoefficientOfVariation">
/// <paramref name="StandardDeviation"/> / <paramref name="Mean"/> as a fraction (0.05 means 5 %); NaN when the mean is 0.
/// </param>
/// <param name="Median">The middle sample, or the mean of the two middle samples when the count is even.</param>
/// <param name="TrimmedMean">The mean after dropping one minimum and one maximum sample (only when the count is at least 3).</param>
/// <param name="TrimmedStandardDeviation">The sample standard deviation of the trimmed samples.</param>
/// <param name="TrimmedCoefficientOfVariation">The coefficient of variation of the trimmed samples.</param>
/// <remarks>
/// The trimmed statistics exist because a single warm-up or hiccup run can dominate the spread of a handful of
/// repetitions; with fewer than 3 samples nothing is dropped and they equal the untrimmed values.
/// </remarks>
public sealed record Summary(
    int Count,
    double Min,
    double Max,
    double Mean,
    double StandardDeviation,
    double CoefficientOfVariation,
    double Median,
    double TrimmedMean,
    double TrimmedStandardDeviation,
    double TrimmedCoefficientOfVariation)
{
    /// <summary>The summary of no samples: <see cref="Count"/> is 0 and every statistic is NaN.</summary>
    public static Summary Empty { get; } = new(
        0, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN);

    /// <summary>The median of the values that are present; <see langword="null"/> when none is.</summary>
    /// <param name="values">The values, missing ones <see langword="null"/>.</param>
    /// <returns>The median.</returns>
    public static double? MedianOf(IEnumerable<double?> values) =>
        values.OfType<double>().ToList() is { Count: > 0 } present ? Of(present).Median : null;

    /// <summary>Summarizes <paramref name="samples"/> without modifying them.</summary>
    /// <param name="samples">The measurements; every one must be a finite number.</param>
    /// <returns>The summary, or <see cref="Empty"/> when there are no samples.</returns>
    /// <exception cref="ArgumentException">A sample is NaN or infinite.</exception>
    public static Summary Of(ReadOnlySpan<double> samples) => OfOwnedBuffer(samples.ToArray());

    /// <summary>Summarizes <paramref name="samples"/> without modifying them.</summary>
    /// <param name="samples">The measurements; every one must be a finite number.</param>
    /// <returns>The summary, or <see cref="Empty"/> when there are no samples.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="samples"/> is null.</exception>
    /// <exception cref="ArgumentException">A sample is NaN or infinite.</exception>
    public static Summary Of(IEnumerable<double> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);

        // ToArray always copies, so sorting the result cannot disturb the caller's collection.
        return OfOwnedBuffer(samples.ToArray());
    }

    /// <summary>Summarizes a private copy of the samples, which may therefore be sorted in place.</summary>
    private static Summary OfOwnedBuffer(double[] samples)
    {
        for (var i = 0; i < samples.Length; i++)
        {
            if (!double.IsFinite(samples[i]))
            {
                // A NaN would silently poison every statistic and comparison downstream; fail where it enters.
                throw new ArgumentException(
                    string.Create(
                        CultureInfo.InvariantCulture,
                        $"Sample {i} is {samples[i]}; every sample must be a finite number."),
                    nameof(samples));
            }
        }

        if (samples.Length == 0)
        {
            return Empty;
        }

        Array.Sort(samples);
        ReadOnlySpan<double> sorted = samples;

        var (mean, standardDeviation) = MeanAndStandardDeviation(sorted);
        var (trimmedMean, trimmedStandardDeviation) = sorted.Length >= 3
            ? MeanAndStandardDeviation(sorted[1..^1])
            : (mean, standardDeviation);

        return new Summary(
            Count: sorted.Length,
            Min: sorted[0],
            Max: sorted[^1],
            Mean: mean,
            StandardDeviation: standardDeviation,
            CoefficientOfVariation: CoefficientOf(standardDeviation, mean),
            Median: MedianOfSorted(sorted),
            TrimmedMean: trimmedMean,
            TrimmedStandardDeviation: trimmedStandardDeviation,
            TrimmedCoefficientOfVariation: CoefficientOf(trimmedStandardDeviation, trimmedMean));
    }

    private static (double Mean, double StandardDeviation) MeanAndStandardDeviation(ReadOnlySpan<double> values)
    {
        var sum = 0.0;
        foreach (var value in values)
        {
            sum += value;
        }

        var mean = sum / values.Length;
        if (values.Length < 2)
        {
            return (mean, 0.0);
        }

        // Two passes (deviations from the mean) rather than Σx² − n·mean², which cancels catastrophically
        // when the spread is tiny compared with the values — the normal case for stable benchmarks.
        var sumOfSquares = 0.0;
        foreach (var value in values)
        {
            var deviation = value - mean;
            sumOfSquares += deviation * deviation;
        }

        return (mean, Math.Sqrt(sumOfSquares / (values.Length - 1)));
    }

    private static double MedianOfSorted(ReadOnlySpan<double> sorted)
    {
        var middle = sorted.Length / 2;

        // Halving each term first cannot overflow even for values near double.MaxValue.
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] / 2) + (sorted[middle] / 2);
    }

    private static double CoefficientOf(double standardDeviation, double mean) =>
        mean == 0 ? double.NaN : standardDeviation / mean;
}
