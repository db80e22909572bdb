using KafkaPerf.Adapters.Workers;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Workers;

public class WorkerSharesTests
{
    [Theory]
    [InlineData(10_000, 3)]
    [InlineData(7, 4)]
    [InlineData(1_000_001, 7)]
    public void Of_Records_AddUpToTheCellExactly(long records, int workers)
    {
        var cell = new PlanCell(ScenarioKind.Produce, records, 100, new ClientSettings());

        var shares = Enumerable.Range(0, workers).Select(i => WorkerShares.Of(cell, i, workers)).ToList();

        Assert.Equal(records, shares.Sum(s => s.MessageCount));
        Assert.True(shares.Max(s => s.MessageCount) - shares.Min(s => s.MessageCount) <= 1);
    }

    [Fact]
    public void Of_ARateCell_SplitsTheRateWithTheRecordsSoEveryWorkerRunsTheCellsDuration()
    {
        var cell = new PlanCell(ScenarioKind.Roundtrip, 30_001, 100, new ClientSettings { Producers = 4 }, Rate: 3_000.1);

        var shares = Enumerable.Range(0, 3).Select(i => WorkerShares.Of(cell, i, 3)).ToList();

        Assert.Equal(3_000.1, shares.Sum(s => s.Rate!.Value), 6);
        Assert.All(shares, s => Assert.Equal(cell.MeasuredDuration.TotalSeconds, s.MeasuredDuration.TotalSeconds, 6));
        Assert.Equal([2, 1, 1], shares.Select(s => s.Settings.Producers!.Value));
    }

    [Fact]
    public void Of_FewerProducersThanWorkers_EveryWorkerStillRunsOne()
    {
        var cell = new PlanCell(ScenarioKind.Produce, 100, 100, new ClientSettings());

        var shares = Enumerable.Range(0, 4).Select(i => WorkerShares.Of(cell, i, 4)).ToList();

        Assert.All(shares, s => Assert.Equal(1, s.Settings.Producers));
        Assert.All(shares, s => Assert.Equal(1, s.Settings.Consumers));
    }

    [Fact]
    public void Of_OneWorker_IsTheCellItself()
    {
        var cell = new PlanCell(ScenarioKind.Produce, 100, 100, new ClientSettings());

        Assert.Same(cell, WorkerShares.Of(cell, 0, 1));
    }
}
