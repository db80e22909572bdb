using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

public class HistoryGateTests
{
    private static readonly CellKey Cell = new("confluent", ScenarioKind.Produce, 1000, 100, "defaults", null);

    [Fact]
    public void Judge_ComparesTheCandidatesMedianWithThePredictionIntervalOfThePastMedians()
    {
        double[] history = [1.00, 1.02, 0.98, 1.01, 0.99];

        var same = HistoryGate.Judge(Cell, history, [1.0, 1.01, 0.99]);
        var slower = HistoryGate.Judge(Cell, history, [1.2, 1.21, 1.19]);
        var tooFew = HistoryGate.Judge(Cell, [1.0, 1.0], [1.2]);

        // Five medians with a spread of about 1.6 %: t(4) = 2.776, × √(1 + 1/5), about ±4.8 % around the ratio.
        Assert.True(same.Judged);
        Assert.InRange(same.Ratio, 0.999, 1.001);
        Assert.InRange(same.Low, 0.94, 0.96);
        Assert.False(same.IsSlowerBeyond(0));
        Assert.InRange(slower.Ratio, 1.199, 1.201);
        Assert.True(slower.IsSlowerBeyond(10));
        Assert.False(slower.IsSlowerBeyond(20));
        Assert.False(tooFew.Judged);
        Assert.False(tooFew.IsSlowerBeyond(0));
    }

    [Theory]
    [InlineData(5, 1, 5)]
    [InlineData(10, 2, 9)]
    [InlineData(20, 6, 15)]
    public void TrendPoint_Interval_IsTheOrderStatisticsThatCoverTheMedianWithAtLeast95Percent(int runs, double low, double high)
    {
        var point = new TrendPoint(1, DateTimeOffset.UnixEpoch, null, null, Cell, [.. Enumerable.Range(1, runs).Select(i => (double)i).Reverse()], null);

        Assert.Equal((low, high), point.Interval);
    }
}
