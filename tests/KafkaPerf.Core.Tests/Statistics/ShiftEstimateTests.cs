using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Statistics;

public class ShiftEstimateTests
{
    [Fact]
    public void Of_CandidateExactlyTwiceTheBaseline_RatioTwoAndIntervalAroundIt()
    {
        double[] b = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02, 0.98];
        var a = b.Select(x => 2 * x).ToArray();

        var shift = ShiftEstimate.Of(a, b, 0.95);

        Assert.Equal(2.0, shift.Ratio, 10);
        Assert.True(shift.Low < 2.0 && shift.High > 2.0, $"[{shift.Low}, {shift.High}]");
        Assert.True(shift.Low > 1.5 && shift.High < 2.5, $"[{shift.Low}, {shift.High}]");
    }

    [Fact]
    public void Of_OneHugeOutlier_RatioBarelyMoves()
    {
        double[] b = [1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99];
        double[] a = [1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 50.0];

        var shift = ShiftEstimate.Of(a, b, 0.95);
        var means = Summary.Of(a).Mean / Summary.Of(b).Mean;

        Assert.InRange(shift.Ratio, 0.98, 1.03);
        Assert.True(means > 7, $"the ratio of means is {means}");
    }

    [Theory]
    [InlineData(5, 5, 0.95, 2)]   // P(U ≤ 2) = 0.0159 ≤ 0.025 < P(U ≤ 3) = 0.0278 (tables of the Mann–Whitney U)
    [InlineData(10, 10, 0.95, 23)]
    [InlineData(20, 20, 0.95, 127)]
    [InlineData(3, 3, 0.95, -1)]  // even U = 0 has probability 0.05 > 0.025: no 95 % interval from 3 runs a side
    public void CutCount_MatchesTheExactMannWhitneyDistribution(int n, int m, double confidence, int expected) =>
        Assert.Equal(expected, ShiftEstimate.CutCount(n, m, confidence));

    [Fact]
    public void CutCount_BeyondTheExactLimit_NormalApproximationCloseToExact()
    {
        int exact = ShiftEstimate.CutCount(50, 50, 0.95);
        int approximate = ShiftEstimate.CutCount(51, 50, 0.95);

        Assert.InRange(approximate - exact, 0, 40);
    }

    [Fact]
    public void Of_ThreeRunsASide_RatioButNoInterval()
    {
        var shift = ShiftEstimate.Of([1.0, 1.1, 1.2], [1.0, 1.1, 1.2], 0.95);

        Assert.Equal(1.0, shift.Ratio, 10);
        Assert.True(double.IsNaN(shift.Low) && double.IsNaN(shift.High));
    }

    [Fact]
    public void Of_NonPositiveSample_Throws() =>
        Assert.Throws<ArgumentException>(() => ShiftEstimate.Of([1.0, 0.0, 1.0], [1.0, 1.0, 1.0], 0.95));
}
