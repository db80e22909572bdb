using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Load;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Load;

[Collection(nameof(LoadScenarioTests))]
public class RateSearchTests
{
    [Fact]
    public async Task RunAsync_ClientThatSlowsAboveAKnownRate_FindsTheKnee()
    {
        // Each send busy-waits 100 µs: the client takes at most 10 000 records a second, and above that its sends fall
        // behind the schedule, so the achieved rate drops under the offered one and response time grows without bound.
        // The criteria are loose (p99 under 300 ms, 95 % of the offered rate sent), and the low rates use at most a fifth
        // of a core, so that a machine busy with other tests (preemption stalls of up to a few hundred ms; with 250 µs a
        // send, CI saw 2 000 msg/s, half a core, fall to 1 863) cannot fail them; above the knee the achieved rate stays
        // under 10 000 and fails the rate criterion whatever the stalls. On a busy machine the knee found may be lower.
        var slow = new InMemoryClientFactory(new InMemoryClientOptions { Name = "slow", SendDelay = TimeSpan.FromMicroseconds(100), ReportsDeliveryLatency = true });
        var template = new BenchmarkPlanBuilder().Clients("slow").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(500).Duration(TimeSpan.FromSeconds(1)).LoadWarmup(TimeSpan.FromMilliseconds(200)).Repeat(1).Build();
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<300ms"), StartRate = 500, MaxRate = 64_000, Precision = 0.10, AchievedTolerance = 0.05 };
        var log = new StringWriter();

        var result = await RateFinder.RunAsync(template, options, new BenchmarkRunner(new ClientRegistry([slow]), ClientConnection.None),
            ClientConnection.None, log, cancellationToken: new CancellationTokenSource(TimeSpan.FromMinutes(2)).Token);

        var search = Assert.Single(result.RateSearches!);
        Assert.NotNull(search.HighestHeld);
        Assert.NotNull(search.LowestFailed);
        Assert.InRange(search.HighestHeld!.Value, 2_000, 11_000);
        Assert.InRange(search.LowestFailed!.Value, search.HighestHeld.Value, search.HighestHeld.Value * 1.10);
        Assert.StartsWith("highest sustainable rate between", search.Conclusion, StringComparison.Ordinal);
        // Doubling from 500 until a rate fails, then halving the gap: 500, 1 000, 2 000, …, 16 000 failed (or earlier), then between.
        Assert.Equal([500.0, 1_000, 2_000], search.Probes.Take(3).Select(p => p.OfferedRate));
        Assert.All(search.Probes.Where(p => p.OfferedRate <= 2_000), p => Assert.True(p.Held, p.Reason));
        // Every probe is a run of the result, and every probe was said as it ran.
        Assert.Equal(search.Probes.Count, result.Runs.Count);
        Assert.Equal(search.Probes.Count, log.ToString().Split('\n').Count(l => l.StartsWith("[probe", StringComparison.Ordinal)));
        // Each probe on a topic of its own.
        Assert.Equal(result.Runs.Count, result.Runs.Select(r => r.Topic).Distinct().Count());
    }

    [Theory]
    [InlineData("p101<5ms", "has no percentile above 0 and at most 100")]
    [InlineData("p99<", "has no time after '<'")]
    [InlineData("p99<5", "has a time without a unit")]
    [InlineData("99<5ms", "does not start with p and a percentile")]
    [InlineData("p99=5ms", "has no '<'")]
    [InlineData("p99<5min", "has an unknown unit 'min'")]
    public void ParseList_NotAPercentileAndATime_OneLineSayingWhat(string goal, string expected)
    {
        var ex = Assert.Throws<PlanValidationException>(() => LatencyGoal.ParseList(goal));

        Assert.Equal($"The latency goal '{goal}' {expected}: write a percentile and a time, e.g. p99<20ms or p99.9<500us.", ex.Message);
    }

    [Fact]
    public void ParseList_TwoGoals_BothKeptAndWrittenBack()
    {
        var goals = LatencyGoal.ParseList("p99<20ms, p99.9<500us");

        Assert.Equal([new LatencyGoal(99, TimeSpan.FromMilliseconds(20)), new LatencyGoal(99.9, TimeSpan.FromMicroseconds(500))], goals);
        Assert.Equal("p99<20ms, p99.9<500us", string.Join(", ", goals));
    }
}
