using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Statistics;

public sealed class ComparisonTests
{
    private const double Precision = 1e-9;

    [Fact]
    public void Of_SmallSamples_RatiosAreAOverBTimesHundred()
    {
        // A = {1, 2, 3}: min 1, max 3, mean 2, SD 1, CV 0.5.
        // B = {2, 4, 9}: min 2, max 9, mean 5, deviations −3, −1, 4 → SD √(26 / 2) = √13, CV √13 / 5.
        var a = Summary.Of([1.0, 2.0, 3.0]);
        var b = Summary.Of([2.0, 4.0, 9.0]);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.Equal(3.0 / 9.0 * 100, comparison.MaxRatioPercent, Precision);
        Assert.Equal(50.0, comparison.MinRatioPercent, Precision);
        Assert.Equal(40.0, comparison.MeanRatioPercent, Precision);
        Assert.Equal(100.0 / Math.Sqrt(13), comparison.StandardDeviationRatioPercent, Precision);
        Assert.Equal(0.5 / (Math.Sqrt(13) / 5) * 100, comparison.CoefficientOfVariationRatioPercent, Precision);
        Assert.Equal(0.4, comparison.MeanRatio, Precision);
        Assert.Equal(0.05, comparison.Tolerance);
        Assert.Equal(0.95, comparison.Confidence);
        Assert.Equal(MetricDirection.LowerIsBetter, comparison.Direction);
    }

    [Fact]
    public void Of_ZeroBaseline_RatiosAreNaNInsteadOfThrowing()
    {
        var a = Summary.Of([1.0, 2.0, 3.0]);
        var b = Summary.Of([0.0, 0.0, 0.0]);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.True(double.IsNaN(comparison.MaxRatioPercent));
        Assert.True(double.IsNaN(comparison.MinRatioPercent));
        Assert.True(double.IsNaN(comparison.MeanRatioPercent));
        Assert.True(double.IsNaN(comparison.StandardDeviationRatioPercent));
        Assert.True(double.IsNaN(comparison.CoefficientOfVariationRatioPercent));
        Assert.True(double.IsNaN(comparison.MeanRatio));
        Assert.True(double.IsNaN(comparison.MeanRatioLow));
        Assert.Equal(Verdict.Inconclusive, comparison.Verdict);
    }

    [Fact]
    public void Of_TwoDrawsFromSameDistribution_IsOnPar()
    {
        var random = new Random(20240601);
        var a = Summary.Of(Draw(random, 20, mean: 100, relativeNoise: 0.02));
        var b = Summary.Of(Draw(random, 20, mean: 100, relativeNoise: 0.02));

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.Equal(Verdict.OnPar, comparison.Verdict);
        Assert.InRange(comparison.MeanRatioLow, 0.95, 1.0);
        Assert.InRange(comparison.MeanRatioHigh, 1.0, 1.05);
    }

    [Fact]
    public void Of_BaselineTwentyPercentSlowerOnTimes_AIsFaster()
    {
        var random = new Random(7);
        var a = Summary.Of(Draw(random, 20, mean: 100, relativeNoise: 0.02));
        var b = Summary.Of(Draw(random, 20, mean: 120, relativeNoise: 0.02));

        Assert.Equal(Verdict.Faster, Comparison.Of(a, b, MetricDirection.LowerIsBetter).Verdict);
        Assert.Equal(Verdict.Slower, Comparison.Of(b, a, MetricDirection.LowerIsBetter).Verdict);
    }

    [Fact]
    public void Of_HigherThroughputForA_HigherIsBetterSaysFaster()
    {
        // Messages per second: A sustains 20 % more than B.
        var random = new Random(11);
        var a = Summary.Of(Draw(random, 20, mean: 120_000, relativeNoise: 0.02));
        var b = Summary.Of(Draw(random, 20, mean: 100_000, relativeNoise: 0.02));

        var throughput = Comparison.Of(a, b, MetricDirection.HigherIsBetter);

        Assert.True(throughput.MeanRatio > 1.15);
        Assert.Equal(Verdict.Faster, throughput.Verdict);
        Assert.Equal(Verdict.Slower, Comparison.Of(b, a, MetricDirection.HigherIsBetter).Verdict);

        // The same numbers read as durations would make A the worse one.
        Assert.Equal(Verdict.Slower, Comparison.Of(a, b, MetricDirection.LowerIsBetter).Verdict);
    }

    [Fact]
    public void Of_FewNoisySamples_IsInconclusive()
    {
        // Means 100 and 105 with ±20 % spread over 5 runs: the interval spans far beyond the tolerance band.
        var a = Summary.Of([70.0, 130.0, 90.0, 110.0, 100.0]);
        var b = Summary.Of([75.0, 135.0, 95.0, 115.0, 105.0]);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.Equal(Verdict.Inconclusive, comparison.Verdict);
        Assert.True(comparison.MeanRatioLow < 0.95 && comparison.MeanRatioHigh > 1.05);
    }

    [Fact]
    public void Of_SignificantButWithinTolerance_IsOnParNotFaster()
    {
        // R = 0.98 with a tight interval that excludes 1: real, but smaller than the 5 % tolerance.
        var a = Constructed(count: 50, mean: 98, standardDeviation: 0.5);
        var b = Constructed(count: 50, mean: 100, standardDeviation: 0.5);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.True(comparison.MeanRatioHigh < 1.0);
        Assert.Equal(Verdict.OnPar, comparison.Verdict);
    }

    [Fact]
    public void Of_IntervalStraddlingToleranceEdge_IsInconclusive()
    {
        // R = 0.93 but the interval reaches past 1: neither a clear win nor within the band.
        var a = Constructed(count: 5, mean: 93, standardDeviation: 8);
        var b = Constructed(count: 5, mean: 100, standardDeviation: 8);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.True(comparison.MeanRatioLow < 0.95 && comparison.MeanRatioHigh > 1.0);
        Assert.Equal(Verdict.Inconclusive, comparison.Verdict);
    }

    [Fact]
    public void Of_ZeroToleranceAndClearDifference_StillDecides()
    {
        var a = Constructed(count: 10, mean: 90, standardDeviation: 1);
        var b = Constructed(count: 10, mean: 100, standardDeviation: 1);

        Assert.Equal(Verdict.Faster, Comparison.Of(a, b, MetricDirection.LowerIsBetter, tolerance: 0).Verdict);
    }

    [Fact]
    public void Of_SyntheticSamples_IntervalContainsTrueRatio()
    {
        var random = new Random(3);
        var a = Summary.Of(Draw(random, 30, mean: 100, relativeNoise: 0.05));
        var b = Summary.Of(Draw(random, 30, mean: 125, relativeNoise: 0.05));

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.InRange(0.8, comparison.MeanRatioLow, comparison.MeanRatioHigh);
        Assert.True(comparison.MeanRatioLow < comparison.MeanRatio && comparison.MeanRatio < comparison.MeanRatioHigh);
    }

    [Fact]
    public void Of_ManySyntheticExperiments_CoverageIsCloseToConfidence()
    {
        // Over many independent experiments a 95 % interval should miss the true ratio (0.8) about 5 % of the time;
        // a wrong variance formula or degrees of freedom shows up as coverage far from 95 %.
        var random = new Random(12345);
        const int Experiments = 2000;
        var covered = 0;
        for (var i = 0; i < Experiments; i++)
        {
            var a = Summary.Of(Draw(random, 8, mean: 100, relativeNoise: 0.05));
            var b = Summary.Of(Draw(random, 12, mean: 125, relativeNoise: 0.10));
            var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);
            if (comparison.MeanRatioLow <= 0.8 && 0.8 <= comparison.MeanRatioHigh)
            {
                covered++;
            }
        }

        Assert.InRange((double)covered / Experiments, 0.93, 0.97);
    }

    [Fact]
    public void Of_HigherConfidence_GivesWiderInterval()
    {
        var a = Constructed(count: 10, mean: 100, standardDeviation: 5);
        var b = Constructed(count: 10, mean: 110, standardDeviation: 5);

        var at95 = Comparison.Of(a, b, MetricDirection.LowerIsBetter);
        var at99 = Comparison.Of(a, b, MetricDirection.LowerIsBetter, confidence: 0.99);

        Assert.True(at99.MeanRatioLow < at95.MeanRatioLow && at99.MeanRatioHigh > at95.MeanRatioHigh);
        Assert.Equal(0.99, at99.Confidence);
    }

    [Fact]
    public void Of_DeltaMethodInterval_MatchesHandComputation()
    {
        // nA = nB = 10, means 100 and 110, SDs 5: vA = 25 / (10·100²) = 2.5e-4, vB = 25 / (10·110²) ≈ 2.066e-4.
        // Welch df = (vA + vB)² / ((vA² + vB²) / 9) ≈ 17.8; the half-width is t(0.975, df) · R · √(vA + vB).
        var a = Constructed(count: 10, mean: 100, standardDeviation: 5);
        var b = Constructed(count: 10, mean: 110, standardDeviation: 5);
        var ratio = 100.0 / 110.0;
        var vA = 25.0 / (10 * 100.0 * 100.0);
        var vB = 25.0 / (10 * 110.0 * 110.0);
        var df = (vA + vB) * (vA + vB) / (((vA * vA) + (vB * vB)) / 9);
        var halfWidth = StudentT.Quantile(0.975, df) * ratio * Math.Sqrt(vA + vB);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.InRange(df, 17.5, 18.0);
        Assert.Equal(ratio - halfWidth, comparison.MeanRatioLow, 1e-12);
        Assert.Equal(ratio + halfWidth, comparison.MeanRatioHigh, 1e-12);
    }

    [Fact]
    public void Of_SingleSampleOnOneSide_IsInconclusiveWithNaNInterval()
    {
        var a = Summary.Of([5.0]);
        var b = Summary.Of([1.0, 2.0, 3.0]);

        var comparison = Comparison.Of(a, b, MetricDirection.LowerIsBetter);

        Assert.Equal(2.5, comparison.MeanRatio, Precision);
        Assert.True(double.IsNaN(comparison.MeanRatioLow));
        Assert.True(double.IsNaN(comparison.MeanRatioHigh));
        Assert.Equal(Verdict.Inconclusive, comparison.Verdict);
        Assert.Equal(Verdict.Inconclusive, Comparison.Of(b, a, MetricDirection.HigherIsBetter).Verdict);
    }

    [Fact]
    public void Of_IdenticalConstantSamples_CollapsedIntervalIsOnPar()
    {
        var a = Summary.Of([10.0, 10.0, 10.0]);

        var comparison = Comparison.Of(a, a, MetricDirection.LowerIsBetter);

        Assert.Equal(1.0, comparison.MeanRatioLow);
        Assert.Equal(1.0, comparison.MeanRatioHigh);
        Assert.Equal(Verdict.OnPar, comparison.Verdict);
    }

    [Theory]
    [InlineData(-0.01)]
    [InlineData(1.0)]
    [InlineData(double.NaN)]
    public void Of_ToleranceOutsideRange_Throws(double tolerance)
    {
        var a = Summary.Of([1.0, 2.0]);

        Assert.Throws<ArgumentOutOfRangeException>(
            () => Comparison.Of(a, a, MetricDirection.LowerIsBetter, tolerance: tolerance));
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(1.0)]
    [InlineData(double.NaN)]
    public void Of_ConfidenceOutsideRange_Throws(double confidence)
    {
        var a = Summary.Of([1.0, 2.0]);

        Assert.Throws<ArgumentOutOfRangeException>(
            () => Comparison.Of(a, a, MetricDirection.LowerIsBetter, confidence: confidence));
    }

    /// <summary>Normally distributed samples around <paramref name="mean"/> with a relative standard deviation.</summary>
    private static double[] Draw(Random random, int count, double mean, double relativeNoise)
    {
        var samples = new double[count];
        for (var i = 0; i < count; i++)
        {
            // Box–Muller; 1 − NextDouble() keeps the logarithm's argument away from 0.
            var u1 = 1.0 - random.NextDouble();
            var u2 = random.NextDouble();
            var standardNormal = Math.Sqrt(-2.0 * Math.Log(u1)) * Math.Cos(2.0 * Math.PI * u2);
            samples[i] = mean * (1.0 + (relativeNoise * standardNormal));
        }

        return samples;
    }

    /// <summary>A summary with chosen moments, for exercising the verdict rules at exact boundaries.</summary>
    private static Summary Constructed(int count, double mean, double standardDeviation) => new(
        count, mean, mean, mean, standardDeviation, standardDeviation / mean, mean, mean, standardDeviation,
        standardDeviation / mean);
}
