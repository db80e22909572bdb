using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Statistics;

public sealed class SummaryTests
{
    private const double Precision = 1e-9;

    [Fact]
    public void Of_TextbookSamples_MatchesHandComputedStatistics()
    {
        double[] samples = [2, 4, 4, 4, 5, 5, 7, 9];

        var summary = Summary.Of(samples);

        // Mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample variance 32 / 7; SD √(32/7).
        Assert.Equal(8, summary.Count);
        Assert.Equal(2, summary.Min);
        Assert.Equal(9, summary.Max);
        Assert.Equal(5, summary.Mean, Precision);
        Assert.Equal(2.138089935, summary.StandardDeviation, 1e-9);
        Assert.Equal(Math.Sqrt(32.0 / 7.0), summary.StandardDeviation, Precision);
        Assert.Equal(0.427617987, summary.CoefficientOfVariation, 1e-9);
        Assert.Equal(4.5, summary.Median, Precision);
    }

    [Fact]
    public void Of_TextbookSamples_TrimmedStatisticsDropOneMinimumAndOneMaximum()
    {
        double[] samples = [2, 4, 4, 4, 5, 5, 7, 9];

        var summary = Summary.Of(samples);

        // Trimmed set {4, 4, 4, 5, 5, 7}: mean 29 / 6 = 4.8333…
        // Deviations −5/6 (×3), 1/6 (×2), 13/6: squares 75/36 + 2/36 + 169/36 = 246/36 = 6.8333…
        // Sample variance 6.8333… / 5 = 1.3666…; SD √1.3666… = 1.169045194; CV 1.169045194 / 4.8333… = 0.241871420.
        Assert.Equal(29.0 / 6.0, summary.TrimmedMean, Precision);
        Assert.Equal(Math.Sqrt(246.0 / 36.0 / 5.0), summary.TrimmedStandardDeviation, Precision);
        Assert.Equal(1.169045194, summary.TrimmedStandardDeviation, 1e-9);
        Assert.Equal(0.241871420, summary.TrimmedCoefficientOfVariation, 1e-9);
    }

    [Fact]
    public void Of_SingleSample_HasZeroDeviationAndEqualTrimmedValues()
    {
        var summary = Summary.Of([42.0]);

        Assert.Equal(1, summary.Count);
        Assert.Equal(42, summary.Min);
        Assert.Equal(42, summary.Max);
        Assert.Equal(42, summary.Mean);
        Assert.Equal(0, summary.StandardDeviation);
        Assert.Equal(0, summary.CoefficientOfVariation);
        Assert.Equal(42, summary.Median);
        Assert.Equal(42, summary.TrimmedMean);
        Assert.Equal(0, summary.TrimmedStandardDeviation);
        Assert.Equal(0, summary.TrimmedCoefficientOfVariation);
    }

    [Fact]
    public void Of_TwoSamples_TrimsNothing()
    {
        var summary = Summary.Of([10.0, 20.0]);

        Assert.Equal(15, summary.Mean, Precision);
        Assert.Equal(summary.Mean, summary.TrimmedMean);
        Assert.Equal(summary.StandardDeviation, summary.TrimmedStandardDeviation);
        Assert.Equal(Math.Sqrt(50.0), summary.StandardDeviation, Precision);
    }

    [Fact]
    public void Of_OddCount_MedianIsMiddleValue()
    {
        var summary = Summary.Of([9.0, 1.0, 5.0, 3.0, 100.0]);

        Assert.Equal(5, summary.Median);
    }

    [Fact]
    public void Of_EvenCount_MedianIsMeanOfTwoMiddleValues()
    {
        var summary = Summary.Of([9.0, 1.0, 6.0, 3.0]);

        Assert.Equal(4.5, summary.Median);
    }

    [Fact]
    public void Of_UnsortedSpan_DoesNotMutateInput()
    {
        double[] samples = [5, 3, 9, 1, 7];
        var original = (double[])samples.Clone();

        _ = Summary.Of(samples.AsSpan());
        _ = Summary.Of((IEnumerable<double>)samples);

        Assert.Equal(original, samples);
    }

    [Fact]
    public void Of_SpanAndEnumerable_GiveEqualSummaries()
    {
        double[] samples = [5, 3, 9, 1, 7];

        Assert.Equal(Summary.Of(samples.AsSpan()), Summary.Of(samples.Select(x => x)));
    }

    [Fact]
    public void Of_NoSamples_ReturnsEmpty()
    {
        var summary = Summary.Of(ReadOnlySpan<double>.Empty);

        Assert.Same(Summary.Empty, summary);
        Assert.Equal(0, summary.Count);
        Assert.True(double.IsNaN(summary.Mean));
        Assert.True(double.IsNaN(summary.Median));
        Assert.True(double.IsNaN(summary.TrimmedCoefficientOfVariation));
    }

    [Theory]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    [InlineData(double.NegativeInfinity)]
    public void Of_NonFiniteSample_ThrowsArgumentException(double bad)
    {
        var exception = Assert.Throws<ArgumentException>(() => Summary.Of([1.0, bad, 3.0]));

        Assert.Equal("samples", exception.ParamName);
        Assert.Contains("finite", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_NullEnumerable_ThrowsArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => Summary.Of((IEnumerable<double>)null!));
    }

    [Fact]
    public void Of_ZeroMean_CoefficientOfVariationIsNaN()
    {
        var summary = Summary.Of([-1.0, 0.0, 1.0]);

        Assert.Equal(0, summary.Mean);
        Assert.True(double.IsNaN(summary.CoefficientOfVariation));
    }

    [Fact]
    public void Of_LargeOffsetSmallSpread_StandardDeviationKeepsPrecision()
    {
        // Σx² − n·mean² would lose every digit here; deviations from the mean keep them.
        var summary = Summary.Of([1e9 + 1, 1e9 + 2, 1e9 + 3]);

        Assert.Equal(1.0, summary.StandardDeviation, 1e-6);
    }
}
