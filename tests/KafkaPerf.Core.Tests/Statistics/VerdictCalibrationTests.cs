using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Statistics;

/// <summary>The verdict method held to its error rates on simulated runs with known answers (seeded, so exact):
/// the full study is <c>KafkaPerf.Benchmarks calibrate</c>, its table in docs/BENCHMARKS.md.</summary>
public class VerdictCalibrationTests
{
    private const int Trials = 2_000;

    private static Verdict Robust(double[] a, double[] b) => Comparison.Of(a, b, MetricDirection.LowerIsBetter).Verdict;

    private static Verdict ByMeans(double[] a, double[] b) => Comparison.Of(Summary.Of(a), Summary.Of(b), MetricDirection.LowerIsBetter).Verdict;

    [Theory]
    [InlineData(0.05, 0.0)]
    [InlineData(0.07, 0.0)]
    [InlineData(0.05, 0.10)]
    public void TwentyRepeats_LowNoise_AAMostlyOnParRarelyWrongAndTenPercentCaught(double cv, double outliers)
    {
        var rates = VerdictCalibration.Measure(Robust, new("test", cv, outliers), repeats: 20, Trials, seed: 11);

        Assert.True(rates.FalseVerdict <= 0.05, $"A/A false verdicts {rates.FalseVerdict:P1}");
        Assert.True(rates.Caught >= 0.95, $"10 % slower caught in {rates.Caught:P1}");
        Assert.Equal(0, rates.WrongWay);
    }

    [Fact]
    public void TwentyRepeats_CV5_AAOnParInMostTrials()
    {
        var rates = VerdictCalibration.Measure(Robust, new("test", 0.05, 0), repeats: 20, Trials, seed: 12);

        Assert.True(rates.OnPar >= 0.75, $"A/A on par in {rates.OnPar:P1}");
    }

    [Theory]
    [InlineData(0.10, 0.0, 10)]
    [InlineData(0.20, 0.0, 20)]
    [InlineData(0.10, 0.10, 30)]
    public void AnyNoise_AAFalseVerdictsStayNearTheLevel(double cv, double outliers, int repeats)
    {
        var rates = VerdictCalibration.Measure(Robust, new("test", cv, outliers), repeats, Trials, seed: 13);

        // The exact Mann–Whitney interval errs in at most 5 % of A/A trials; 2 000 trials give ±1 % of sampling error.
        Assert.True(rates.FalseVerdict <= 0.06, $"A/A false verdicts {rates.FalseVerdict:P1}");
    }

    [Fact]
    public void SlowOutliers_RobustRatioCatchesWhatTheRatioOfMeansMisses()
    {
        var noise = new VerdictCalibration.Noise("test", 0.05, 0.10);

        var robust = VerdictCalibration.Measure(Robust, noise, repeats: 20, Trials, seed: 14);
        var means = VerdictCalibration.Measure(ByMeans, noise, repeats: 20, Trials, seed: 14);

        Assert.True(robust.Caught > means.Caught + 0.4, $"robust {robust.Caught:P1}, means {means.Caught:P1}");
        Assert.True(robust.OnPar > means.OnPar + 0.3, $"robust {robust.OnPar:P1}, means {means.OnPar:P1}");
    }
}
