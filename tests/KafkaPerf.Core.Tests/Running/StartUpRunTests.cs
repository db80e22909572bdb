using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Running;

public class StartUpRunTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromMilliseconds(100);

    [Fact]
    public async Task RunAsync_ClientWaitsBeforeItsFirstRecord_TheWaitIsApartFromTheRateAndItsVerdictSaysMostlyStartUp()
    {
        // "waiting" stands for librdkafka's consumer of a new group: 100 ms before its first fetch, then the same in-memory
        // rate as "prompt"; "slow" takes 10 µs per send, a difference of rate and not of start-up.
        var runner = new BenchmarkRunner(new ClientRegistry(
        [
            new InMemoryClientFactory(new InMemoryClientOptions { Name = "prompt" }),
            new InMemoryClientFactory(new InMemoryClientOptions { Name = "waiting", FirstRecordDelay = Wait }),
            new InMemoryClientFactory(new InMemoryClientOptions { Name = "slow", SendDelay = TimeSpan.FromMicroseconds(10) }),
        ]), ClusterConnection.None);
        var plan = new BenchmarkPlanBuilder().Clients("prompt", "waiting", "slow").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(10_000).PayloadSizes(100).Repeat(5).Build();

        var result = await runner.RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        var waiting = result.Runs.Where(r => r.Client == "waiting" && r.Scenario == ScenarioKind.Consume).ToList();
        Assert.All(waiting, r => Assert.True(r.FirstRecordSeconds >= Wait.TotalSeconds, $"first record after {r.FirstRecordSeconds} s"));
        // In a roundtrip the wait starts at the assignment, a little before the first send.
        Assert.All(result.Runs.Where(r => r.Client == "waiting" && r.Scenario == ScenarioKind.Roundtrip),
            r => Assert.True(r.FirstRecordSeconds >= Wait.TotalSeconds / 2, $"first record after {r.FirstRecordSeconds} s"));
        Assert.All(result.Runs.Where(r => r.Scenario == ScenarioKind.Produce), r => Assert.Null(r.FirstRecordSeconds));

        var prompt = Cell(result, "prompt", ScenarioKind.Consume);
        var waited = Cell(result, "waiting", ScenarioKind.Consume);
        Assert.True(prompt.FirstRecordSeconds!.Median < Wait.TotalSeconds / 4, $"prompt's first record after {prompt.FirstRecordSeconds.Median} s");
        // The elapsed times differ many times over; the rates after the first record are alike (in-memory runs of a few
        // milliseconds spread widely on a shared machine: within 5×).
        Assert.True(waited.ElapsedSeconds.Median > 10 * prompt.ElapsedSeconds.Median, $"{waited.ElapsedSeconds.Median} s against {prompt.ElapsedSeconds.Median} s");
        double afterRatio = waited.MessagesPerSecondAfterFirst!.Median / prompt.MessagesPerSecondAfterFirst!.Median;
        Assert.InRange(afterRatio, 0.2, 5);

        foreach (var scenario in new[] { ScenarioKind.Consume, ScenarioKind.Roundtrip })
        {
            var startUp = Comparison(result, "waiting", scenario);
            Assert.Equal(Verdict.Slower, startUp.ElapsedSeconds.Verdict);
            Assert.True(startUp.StartUpShare >= 0.9, $"{scenario}: share {startUp.StartUpShare}");
            Assert.True(startUp.MostlyStartUp);
        }
        var rate = Comparison(result, "slow", ScenarioKind.Roundtrip);
        Assert.Equal(Verdict.Slower, rate.ElapsedSeconds.Verdict);
        Assert.True(rate.StartUpShare < 0.5, $"share {rate.StartUpShare}");
        Assert.False(rate.MostlyStartUp);
        Assert.All(result.Comparisons.Where(c => c.Scenario == ScenarioKind.Produce), c => Assert.False(c.MostlyStartUp));
        Assert.Equal(Verdict.Slower, Comparison(result, "slow", ScenarioKind.Produce).ElapsedSeconds.Verdict);

        // The report's verdict row carries the caveat.
        var verdicts = ResultTables.Document(result).Sections.Single(s => s.Title == "Consume · defaults — waiting vs prompt").Blocks.OfType<ReportTable>().Last();
        Assert.StartsWith("waiting slower (mostly start-up: first record waiting 1", Assert.Single(verdicts.Rows)[^1], StringComparison.Ordinal);
    }

    private static CellResult Cell(BenchmarkResult result, string client, ScenarioKind scenario) =>
        result.Cells.Single(c => c.Client == client && c.Scenario == scenario);

    private static CellComparison Comparison(BenchmarkResult result, string candidate, ScenarioKind scenario) =>
        result.Comparisons.Single(c => c.Candidate == candidate && c.Scenario == scenario);
}
