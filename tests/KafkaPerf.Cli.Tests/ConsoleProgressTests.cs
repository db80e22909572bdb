using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli.Tests;

public class ConsoleProgressTests
{
    [Fact]
    public void TimeLeft_AfterAClusterWarmup_CountsFromTheFirstRunOnly()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).MessageCounts(10).PayloadSizes(10)
            .Repeat(10).Warmup(false).Build();
        var cell = plan.Cells().First();
        var run = new RunDescriptor(1, plan.TotalRuns, cell, "inmemory", 0, "t");
        using var writer = new StringWriter();
        var progress = new ConsoleProgress(writer);

        progress.OnPlanStarted(plan);
        // What a cluster warm-up does between the plan's start and its first run: it takes time, and no run.
        Thread.Sleep(TimeSpan.FromSeconds(1.5));
        progress.OnRunStarting(run);

        // 1 of 10 runs done at once: what is left is about nothing, not nine times the warm-up.
        Assert.Equal("~1 s left", progress.TimeLeft(run));
    }

    [Fact]
    public void OnClusterWarmupRound_ALineEvery10sOrSo_NoneAfterTheEnd()
    {
        var plan = new BenchmarkPlanBuilder().Clients("a", "b").Scenarios(ScenarioKind.Produce).MessageCounts(10).PayloadSizes(10)
            .ClusterWarmup(TimeSpan.FromSeconds(30)).Build();
        using var writer = new StringWriter();
        var progress = new ConsoleProgress(writer);
        progress.OnPlanStarted(plan);
        int header = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).Length;

        foreach (var (round, seconds) in new[] { (1, 5), (2, 12), (3, 18), (4, 23), (5, 31) })
            progress.OnClusterWarmupRound(round, round % 2 == 1 ? "a" : "b", TimeSpan.FromSeconds(seconds), plan.ClusterWarmup);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries)[header..];
        Assert.Equal(["kafkaperf: cluster warm-up: 12 s of 30 s, round 2 (b) done", "kafkaperf: cluster warm-up: 23 s of 30 s, round 4 (b) done"], lines);
    }
}
