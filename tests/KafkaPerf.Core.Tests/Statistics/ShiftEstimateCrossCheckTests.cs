using KafkaPerf.Statistics;
using Pragmastat;
using Pragmastat.Estimators;

namespace KafkaPerf.Core.Tests.Statistics;

/// <summary>KafkaPerf keeps its own robust ratio because it needs the exact Mann–Whitney interval around it, which
/// Perfolizer 0.6.1 and its Pragmastat estimators do not give; the point estimate itself must agree with theirs.</summary>
public class ShiftEstimateCrossCheckTests
{
    [Theory]
    [InlineData(5, 7, 1)]
    [InlineData(11, 9, 2)]
    [InlineData(21, 31, 3)]
    public void Ratio_RandomRuns_EqualsPragmastatsRatioEstimator(int n, int m, int seed)
    {
        var random = new Random(seed);
        double[] a = [.. Enumerable.Range(0, n).Select(_ => 1.2 * Math.Exp(0.2 * Normal(random)))];
        double[] b = [.. Enumerable.Range(0, m).Select(_ => 1.0 * Math.Exp(0.2 * Normal(random)))];

        double ours = ShiftEstimate.Of(a, b, 0.95).Ratio;
        double theirs = RatioEstimator.Instance.Estimate(new Sample(a), new Sample(b)).NominalValue;

        // n·m is odd: the median of the pairwise ratios is one of them, and exp(median of log ratios) is the same one.
        Assert.Equal(theirs, ours, 1e-12);
    }

    private static double Normal(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
