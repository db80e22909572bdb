using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Core.Tests.Clients;
using KafkaPerf.Core.Tests.Scenarios.Load;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Core.Tests.Running;

[Collection(nameof(LoadScenarioTests))]
public class RateSearchTests
{
    [Fact]
    public async Task RunAsync_ClientsWithKnownCapacities_ProbesInTurnAndBracketsEachKnee()
    {
        // A model of two clients, one that keeps up to 7 300 msg/s and one to 900: under its capacity a probe sends at the
        // offered rate with 1 ms response time, above it at its capacity with 1 s. No clock enters, so the search's path is
        // exact: doubling from 500 until a rate fails, then the geometric middle of the bracket until it is within 10 %.
        var capacity = new Dictionary<string, double> { ["fast"] = 7_300, ["slow"] = 900 };
        var targets = capacity.Keys.Select(c => new RateSearchTarget(c, ScenarioKind.Produce, 100, "default")).ToList();
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<300ms"), StartRate = 500, MaxRate = 64_000, Precision = 0.10, AchievedTolerance = 0.05 };
        var order = new List<string>();
        var said = new List<(string Client, RateProbe Probe)>();

        var (results, cancelled) = await RateSearch.RunAsync(targets, options, (target, rate, _) =>
        {
            order.Add(target.Client);
            return Task.FromResult(ModelRun(order.Count, rate, capacity[target.Client]));
        }, (target, probe) => said.Add((target.Client, probe)), CancellationToken.None);

        Assert.False(cancelled);
        var fast = results[0];
        Assert.Equal([500.0, 1_000, 2_000, 4_000, 8_000, 5_657, 6_727, 7_336], fast.Probes.Select(p => p.OfferedRate));
        Assert.Equal([true, true, true, true, false, true, true, false], fast.Probes.Select(p => p.Held));
        Assert.Equal((6_727.0, 7_336.0), (fast.HighestHeld!.Value, fast.LowestFailed!.Value));
        Assert.Equal("highest sustainable rate between 6 727 (held) and 7 336 msg/s (failed)", fast.Conclusion);
        Assert.Equal("sent 7 300 msg/s, under 95 % of the offered rate", fast.Probes[4].Reason);
        Assert.Equal("p99 1000.342 ms, not under 300 ms", fast.Probes[7].Reason);
        var slow = results[1];
        Assert.Equal([500.0, 1_000, 707, 841, 917], slow.Probes.Select(p => p.OfferedRate));
        Assert.Equal("highest sustainable rate between 841 (held) and 917 msg/s (failed)", slow.Conclusion);
        // Probe by probe in turn while both search; the fast one alone once the slow one is done.
        Assert.Equal(["fast", "slow", "fast", "slow", "fast", "slow", "fast", "slow", "fast", "slow", "fast", "fast", "fast"], order);
        Assert.Equal(order.Count, said.Count);
        Assert.Equal(order, said.Select(s => s.Client));
    }

    [Fact]
    public async Task RunAsync_StartRateFailsAndTheLimitIsReached_HalvesThenStopsAtTheMostProbes()
    {
        // A client that keeps up to 300 msg/s, searched from 1 000 with at most four probes: 1 000 and 500 fail, 250
        // holds, and the fourth probe (the bracket's middle) is the last one, the search unfinished.
        var target = new RateSearchTarget("c", ScenarioKind.Produce, 100, "default");
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<300ms"), StartRate = 1_000, Precision = 0.01, MaxProbes = 4 };
        int sequence = 0;

        var (results, _) = await RateSearch.RunAsync([target], options, (_, rate, _) => Task.FromResult(ModelRun(++sequence, rate, 300)), null, CancellationToken.None);

        var search = Assert.Single(results);
        Assert.Equal([1_000.0, 500, 250, 354], search.Probes.Select(p => p.OfferedRate));
        Assert.Equal("between 250 (held) and 354 msg/s (failed) after 4 probes", search.Conclusion);
    }

    [Fact]
    public async Task RunAsync_ClientWithoutDeliveryReports_OneProbeAndSaysWhyNoRateCanBeJudged()
    {
        // Produce with a client that reports no deliveries measures no response time at any rate: halving down to 1 msg/s
        // (11 probes from 1 000) would say only "no rate held".
        var silent = new InMemoryClientFactory(new InMemoryClientOptions { Name = "silent", ReportsDeliveryLatency = false });
        var template = new BenchmarkPlanBuilder().Clients("silent").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(1_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(1).Build();
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<20ms"), StartRate = 1_000 };

        var result = await RateFinder.RunAsync(template, options, new BenchmarkRunner(new ClientRegistry([silent]), ClusterConnection.None),
            ClusterConnection.None, log: null, cancellationToken: new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token);

        var search = Assert.Single(result.RateSearches!);
        var probe = Assert.Single(search.Probes);
        Assert.Equal("no response time was measured", probe.Reason);
        Assert.Equal("no response time was measured at 1 000 msg/s, so no rate can be judged: silent reports no delivery of what it sends; "
            + "search the roundtrip scenario (--scenarios roundtrip)", search.Conclusion);
    }

    [Fact]
    public async Task RunAsync_OnAClusterStartedForIt_SaysItsWarningsAndWarmUpAsTheyHappenAndTheColdOneOnce()
    {
        static TestClientFactory Client(string name) => new(new InMemoryClientOptions { Name = name, ReportsDeliveryLatency = true }) { RequiresBroker = true };
        var (a, b) = (Client("a"), Client("b"));
        var started = new ClusterConnection("cluster.invalid:9092") { Ephemeral = true, BrokerName = "the embedded cluster" };
        BenchmarkPlan Template(TimeSpan clusterWarmup) => new BenchmarkPlanBuilder().Clients("a", "b").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(1_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(1).ClusterWarmup(clusterWarmup).Build();
        // Loose criteria (what is asserted is not the rates): short probes on a busy machine miss 1 % of their rate.
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<1s"), StartRate = 1_000, MaxRate = 4_000, AchievedTolerance = 0.5 };
        const string Cold = "The embedded cluster was started for this plan and has not served any load yet";
        var coldLog = new StringWriter();
        var warmLog = new StringWriter();

        var cold = await RateFinder.RunAsync(Template(TimeSpan.Zero), options, new BenchmarkRunner(new ClientRegistry([a, b]), started), started, coldLog,
            cancellationToken: new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token);
        var (warmA, warmB) = (Client("a"), Client("b"));
        var warm = await RateFinder.RunAsync(Template(TimeSpan.FromMilliseconds(100)), options, new BenchmarkRunner(new ClientRegistry([warmA, warmB]), started), started, warmLog,
            cancellationToken: new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token);

        // Several probes (1 000, 2 000 and 4 000 msg/s when all hold; whichever fails, at least a second one follows): the
        // cold warning comes with the first probe only, and is on the console.
        Assert.InRange(cold.RateSearches![0].Probes.Count, 2, 16);
        Assert.Single(cold.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal));
        Assert.Single(coldLog.ToString().Split('\n'), l => l.StartsWith("warning: " + Cold, StringComparison.Ordinal));
        Assert.DoesNotContain(warm.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal));
        Assert.Contains("kafkaperf: warming the cluster up for 0.1 s before the first probe", warmLog.ToString(), StringComparison.Ordinal);
        // Warmed up by both clients of the search, before the first probe (of a's).
        Assert.Matches("produced and consumed by a, b", warm.ClusterWarmup);
        Assert.True(warmA.Created.First().Contains("__cluster-warmup__", StringComparison.Ordinal), warmA.Created.First());
        Assert.True(warmB.Created.First().Contains("__cluster-warmup__", StringComparison.Ordinal), warmB.Created.First());
    }

    [Fact]
    public async Task RunAsync_ClientThatSlowsAboveAKnownRate_FindsTheKnee()
    {
        // The same search on real runs of a client that busy-waits 100 µs per send: it takes at most 10 000 records a
        // second, and above that its sends fall behind the schedule, so the achieved rate drops under the offered one and
        // response time grows without bound. Where exactly the knee is found depends on the machine: on one busy with other
        // test runs (CI runs the test projects side by side, brokers starting) preemption stalls of a few hundred ms fail
        // rates far below 10 000 (CI once found 1 542). What no machine can do is hold a rate whose 95 % is above 10 000
        // (10 526), so the first failure is at most 10 % above that; the path of the search itself is pinned down by the
        // model test above.
        var slow = new InMemoryClientFactory(new InMemoryClientOptions { Name = "slow", SendDelay = TimeSpan.FromMicroseconds(100), ReportsDeliveryLatency = true });
        var template = new BenchmarkPlanBuilder().Clients("slow").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(500).Duration(TimeSpan.FromSeconds(1)).LoadWarmup(TimeSpan.FromMilliseconds(200)).Repeat(1).Build();
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<300ms"), StartRate = 500, MaxRate = 64_000, Precision = 0.10, AchievedTolerance = 0.05 };
        var log = new StringWriter();

        var result = await RateFinder.RunAsync(template, options, new BenchmarkRunner(new ClientRegistry([slow]), ClusterConnection.None),
            ClusterConnection.None, log, cancellationToken: new CancellationTokenSource(TimeSpan.FromMinutes(2)).Token);

        var search = Assert.Single(result.RateSearches!);
        Assert.NotNull(search.LowestFailed);
        Assert.InRange(search.LowestFailed!.Value, 250, 11_600);
        Assert.All(search.Probes.Where(p => p.OfferedRate > 10_600), p => Assert.False(p.Held, $"{p.OfferedRate} msg/s held"));
        Assert.All(search.Probes.Where(p => !p.Held), p => Assert.False(string.IsNullOrEmpty(p.Reason)));
        Assert.Equal(500.0, search.Probes[0].OfferedRate);
        // Every probe is a run of the result, and every probe was said as it ran.
        Assert.Equal(search.Probes.Count, result.Runs.Count);
        Assert.Equal(search.Probes.Count, log.ToString().Split('\n').Count(l => l.StartsWith("[probe", StringComparison.Ordinal)));
        // Each probe on a topic of its own.
        Assert.Equal(result.Runs.Count, result.Runs.Select(r => r.Topic).Distinct().Count());
    }

    [Fact]
    public async Task RunAsync_TwoClientsProbedAtDifferentRates_ThePlanCountsTheRunsThatRan()
    {
        // fast holds 1 000, 2 000 and 4 000; slow (4 ms a send: 250 msg/s at most) fails 1 000, then 500, then 250 or
        // holds it: five rates in all, but three probes each.
        var fast = new InMemoryClientFactory(new InMemoryClientOptions { Name = "fast", ReportsDeliveryLatency = true });
        var slow = new InMemoryClientFactory(new InMemoryClientOptions { Name = "slow", SendDelay = TimeSpan.FromMilliseconds(4), ReportsDeliveryLatency = true });
        var template = new BenchmarkPlanBuilder().Clients("fast", "slow").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(1_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(1).Build();
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<10s"), StartRate = 1_000, MaxRate = 4_000, MaxProbes = 3, AchievedTolerance = 0.5 };

        var result = await RateFinder.RunAsync(template, options, new BenchmarkRunner(new ClientRegistry([fast, slow]), ClusterConnection.None),
            ClusterConnection.None, null, cancellationToken: new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token);

        Assert.True(result.Plan.Rates.Count > result.RateSearches!.Max(s => s.Probes.Count), string.Join(", ", result.Plan.Rates));
        Assert.Equal(result.Runs.Count, result.Plan.TotalRuns);
        Assert.Equal(result.RateSearches!.Sum(s => s.Probes.Count), result.Plan.TotalRuns);
    }

    /// <summary>One run of a model client of <paramref name="capacity"/> msg/s at <paramref name="rate"/>.</summary>
    private static IReadOnlyList<RunRecord> ModelRun(int sequence, double rate, double capacity)
    {
        bool keepsUp = rate <= capacity;
        var histogram = Histograms.Create();
        histogram.RecordValueWithCount(keepsUp ? 1_000_000 : 1_000_000_000, 1_000);
        return
        [
            new RunRecord
            {
                Sequence = sequence, Client = "model", Scenario = ScenarioKind.Produce, MessageCount = 1_000, PayloadBytes = 100,
                Variant = "default", Repetition = 1, IsWarmup = false, Topic = $"model-{sequence}", ElapsedSeconds = 1,
                MessagesPerSecond = Math.Min(rate, capacity), MegabytesPerSecond = 0, Lost = 0, Duplicates = 0,
                AchievedRate = Math.Min(rate, capacity), ResponseTimeHistogram = histogram,
            },
        ];
    }

    [Theory]
    [InlineData("p101<5ms", "has no percentile above 0 and at most 100")]
    [InlineData("p99<", "has no time after '<'")]
    [InlineData("p99<5", "has a time without a unit")]
    [InlineData("99<5ms", "does not start with p and a percentile")]
    [InlineData("p99=5ms", "has no '<'")]
    [InlineData("p99<5min", "has an unknown unit 'min'")]
    [InlineData("p99<1ns", "is under a microsecond, which no Kafka client answers in")]
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
