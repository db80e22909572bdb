using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Core.Tests.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Running;

public class BenchmarkRunnerTests
{
    private static BenchmarkRunner Runner(params IBenchClientFactory[] factories) =>
        new(new ClientRegistry(factories), ClusterConnection.None);

    /// <summary>A runner whose clients stand for clients of a cluster, at an address nothing checks.</summary>
    private static BenchmarkRunner ClusterRunner(params IBenchClientFactory[] factories) =>
        new(new ClientRegistry(factories), new ClusterConnection("cluster.invalid:9092"));

    [Fact]
    public async Task RunAsync_FactoryWarnsAboutSettings_OnceAcrossVariantsAndOnlyWhereItApplies()
    {
        const string Caveat = "linger differs between these clients";
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { LingerWarning = Caveat };
        var unset = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(1)
            .Acks(AcksMode.None, AcksMode.Leader).Build();
        var set = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(1)
            .LingerMs(5).Build();

        var warned = await Runner(a).RunAsync(unset, cancellationToken: TestRunContext.Current);
        var quiet = await Runner(a).RunAsync(set, cancellationToken: TestRunContext.Current);

        Assert.Single(warned.Warnings, w => w == Caveat);
        Assert.DoesNotContain(Caveat, quiet.Warnings);
    }

    [Fact]
    public async Task RunAsync_TwoClientsThreeScenarios_RunsEveryCellWithWarmupsExcludedAndTopicsDeleted()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" });
        var b = new TestClientFactory(new InMemoryClientOptions { Name = "b" });
        var plan = new BenchmarkPlanBuilder().Clients("a", "b")
            .Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(1_000, 5_000).PayloadSizes(10, 1_000).Repeat(3).Consume(checkPayload: true).Build();

        var result = await Runner(a, b).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal(plan.TotalRuns, result.Runs.Count);
        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.Equal(3 * 2 * 2 * 2, result.Cells.Count);
        Assert.All(result.Cells, c => Assert.Equal(3, c.Runs));
        Assert.Equal(3 * 2 * 2, result.Comparisons.Count);
        Assert.All(result.Comparisons, c => Assert.Equal(("b", "a"), (c.Candidate, c.Baseline)));
        Assert.All(result.Cells.Where(c => c.Scenario == ScenarioKind.Roundtrip), c => Assert.Equal(c.MessageCount * 3, c.Latency!.Count));
        Assert.Equal(a.Created.Order(), a.Deleted.Order());
        Assert.Equal(result.Runs.Count, a.Created.Count + b.Created.Count);
        Assert.Equal(result.Runs.Count, result.Runs.Select(r => r.Topic).Distinct().Count());
        Assert.False(result.Cancelled);
    }

    [Fact]
    public async Task RunAsync_ConsumerReadsPastOneRecordWithoutIt_ItsLossIsProvenWithoutWaitingForTheStallTimeout()
    {
        var lossy = new TestClientFactory(new InMemoryClientOptions { Name = "lossy" }, dropKey: 42);
        // A stall timeout the test would never reach: the read ends at the last acknowledged offset, not on a timer.
        var plan = new BenchmarkPlanBuilder().Clients("lossy").Scenarios(ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(100).PayloadSizes(10).Repeat(1).Warmup(false).StallTimeout(TimeSpan.FromMinutes(10)).Build();

        var result = await Runner(lossy).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal(2, result.Runs.Count);
        Assert.All(result.Runs, run =>
        {
            Assert.False(run.Succeeded);
            Assert.Equal(1, run.Lost);
            Assert.Equal(0, run.NotVerified);
            Assert.Null(run.NotVerifiedReason);
            Assert.Equal("verification failed: 1 lost, 0 duplicated, 0 unexpected, 0 payload mismatches", run.Error);
        });
        Assert.All(result.Cells, c => Assert.Equal((1, 1), (c.FailedRuns, c.Lost)));
    }

    [Fact]
    public async Task RunAsync_ConsumerStopsReadingHalfWay_RecordsNotReadAreNotVerifiedNeverLost()
    {
        var stuck = new TestClientFactory(new InMemoryClientOptions { Name = "stuck" }, stopAtKey: 60);
        var plan = new BenchmarkPlanBuilder().Clients("stuck").Scenarios(ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(100).PayloadSizes(10).Repeat(1).Warmup(false).StallTimeout(TimeSpan.FromMilliseconds(300)).Build();

        var result = await Runner(stuck).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal(2, result.Runs.Count);
        Assert.All(result.Runs, run =>
        {
            Assert.False(run.Succeeded);
            Assert.Equal(0, run.Lost);
            Assert.Equal(40, run.NotVerified);
            // One partition, offsets 0..99 acknowledged, records 0..59 read.
            Assert.Matches(@"^40 acknowledged records not read: nothing new for 0\.3 s; read to offset 60 of 99 on partition 0 in \d+(\.\d)? s$", run.NotVerifiedReason);
            Assert.Contains("60 of 100 records arrived", run.Error, StringComparison.Ordinal);
        });
        Assert.All(result.Cells, c => Assert.Equal((1, 0, 40), (c.FailedRuns, c.Lost, c.NotVerified)));
    }

    [Fact]
    public async Task RunAsync_ConsumerDuplicatesOneRecord_DuplicateReportedAndRunFailed()
    {
        var doubling = new TestClientFactory(new InMemoryClientOptions { Name = "doubling" }, duplicateKey: 7);
        var plan = new BenchmarkPlanBuilder().Clients("doubling").Scenarios(ScenarioKind.Consume)
            .MessageCounts(100).PayloadSizes(10).Repeat(1).Warmup(false).Build();

        var result = await Runner(doubling).RunAsync(plan, cancellationToken: TestRunContext.Current);

        var run = Assert.Single(result.Runs);
        Assert.Equal(1, run.Duplicates);
        Assert.Equal(0, run.Lost);
        Assert.False(run.Succeeded);
    }

    [Fact]
    public async Task RunAsync_RoundtripOnly_RecordsBothEffectiveConfigs()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Roundtrip)
            .MessageCounts(100).PayloadSizes(10).Repeat(1).LingerMs(7).Build();

        var result = await Runner(new InMemoryClientFactory(new InMemoryClientOptions())).RunAsync(plan, cancellationToken: TestRunContext.Current);

        var client = Assert.Single(result.Clients);
        Assert.Equal("7", client.ProducerConfig!["linger.ms"]);
        Assert.Equal("7", client.ConsumerConfig!["linger.ms"]);
    }

    [Fact]
    public async Task RunAsync_CancelledAfterFirstRun_ReturnsPartialResultAndDeletesTopics()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" });
        var plan = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce)
            .MessageCounts(1_000).PayloadSizes(10).Repeat(10).Build();
        using var cts = new CancellationTokenSource();

        var result = await Runner(a).RunAsync(plan, new CancelAfterFirstRun(cts), cts.Token);

        Assert.True(result.Cancelled);
        Assert.Single(result.Runs);
        Assert.Equal(a.Created, a.Deleted);
    }

    [Fact]
    public async Task RunAsync_PartitionsSwept_EachVariantsTopicsHaveItsCount()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" });
        var plan = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(1)
            .Warmup(false).Partitions(1, 3).Build();

        var result = await Runner(a).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal(["partitions=1", "partitions=3"], result.Runs.Select(r => r.Variant));
        Assert.Equal([1, 3], a.CreatedPartitions);
    }

    [Fact]
    public async Task RunAsync_CancelledDuringARun_ThatRunIsRecordedAsCancelled()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" });
        var plan = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce)
            .MessageCounts(200_000).PayloadSizes(10).Repeat(3).Build();
        using var cts = new CancellationTokenSource();

        var result = await Runner(a).RunAsync(plan, new CancelWhenSecondRunStarts(cts), cts.Token);

        Assert.True(result.Cancelled);
        Assert.Equal(2, result.Runs.Count);
        Assert.True(result.Runs[0].Succeeded);
        var cut = result.Runs[1];
        Assert.False(cut.Succeeded);
        Assert.Equal(BenchmarkRunner.CancelledRunError, cut.Error);
        Assert.Equal(0, cut.Lost);
        using var csv = new StringWriter();
        DefaultExporters.Csv.Export(result, csv);
        Assert.Contains(BenchmarkRunner.CancelledRunError, csv.ToString(), StringComparison.Ordinal);
        Assert.Equal(a.Created, a.Deleted);
    }

    [Fact]
    public async Task RunAsync_SettingsSweep_RecordsTheEffectiveConfigOfEveryVariant()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" });
        var plan = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
            .MessageCounts(10).PayloadSizes(1).Repeat(1).LingerMs(0, 5).Build();

        var result = await Runner(a).RunAsync(plan, cancellationToken: TestRunContext.Current);

        var configs = Assert.Single(result.Clients).VariantConfigs!;
        Assert.Equal(["linger.ms=0", "linger.ms=5"], configs.Keys.Order());
        Assert.All(configs.Values, c => Assert.NotNull(c.ProducerConfig));
        Assert.All(configs.Values, c => Assert.NotNull(c.ConsumerConfig));
    }

    [Fact]
    public async Task RunAsync_TopicExistsAlready_RunFailsAndTheTopicIsNotDeleted()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { FailBeforeCreating = new TopicExistsException("x") };
        var plan = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).MessageCounts(10).PayloadSizes(1).Repeat(1).Build();

        var result = await Runner(a).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.StartsWith("Topic 'x' already exists", r.Error, StringComparison.Ordinal));
        Assert.Empty(a.Deleted);
    }

    [Fact]
    public async Task RunAsync_TopicCreatedButItsWaitFailed_RunFailsAndTheTopicIsDeleted()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { FailAfterCreating = new TimeoutException("no leader") };
        var plan = new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).MessageCounts(10).PayloadSizes(1).Repeat(1).Build();

        var result = await Runner(a).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.Contains("TimeoutException: no leader", r.Error, StringComparison.Ordinal));
        Assert.Equal(2, a.Created.Count);
        Assert.Equal(a.Created.Order(), a.Deleted.Order());
    }

    [Fact]
    public async Task RunAsync_UnknownClient_FailsBeforeAnyRunNamingTheKnownOnes()
    {
        var plan = new BenchmarkPlanBuilder().Clients("nope").Scenarios(ScenarioKind.Produce).MessageCounts(1).PayloadSizes(1).Build();

        var ex = await Assert.ThrowsAsync<PlanValidationException>(async () =>
            await Runner(new InMemoryClientFactory(new InMemoryClientOptions())).RunAsync(plan, cancellationToken: TestRunContext.Current));

        Assert.Equal("Unknown client 'nope': choose from inmemory.", ex.Message);
    }

    [Fact]
    public async Task RunAsync_CandidateWithInjectedDelay_VerdictIsSlower()
    {
        // A stepping clock, not busy-waits: sends cost 1 µs and 2 µs (± 5 % per run), so the verdict depends on the
        // statistics alone, never on how loaded the machine is (busy-waits came out "inconclusive" under CI load).
        var clock = new SteppingClock();
        var fast = new TestClientFactory(new InMemoryClientOptions { Name = "fast" }) { Clock = clock, SendCostTicks = 1_000 };
        var slow = new TestClientFactory(new InMemoryClientOptions { Name = "slow" }) { Clock = clock, SendCostTicks = 2_000 };
        var plan = new BenchmarkPlanBuilder().Clients("fast", "slow").Scenarios(ScenarioKind.Produce)
            .MessageCounts(20_000).PayloadSizes(100).Repeat(5).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([fast, slow]), ClusterConnection.None, clock)
            .RunAsync(plan, cancellationToken: TestRunContext.Current);

        var comparison = Assert.Single(result.Comparisons);
        Assert.Equal(Verdict.Slower, comparison.ElapsedSeconds.Verdict);
        Assert.Equal(Verdict.Slower, comparison.MessagesPerSecond.Verdict);
        Assert.InRange(comparison.ElapsedSeconds.MeanRatioPercent, 180, 220);
    }

    private sealed class CancelWhenSecondRunStarts(CancellationTokenSource cts) : IBenchmarkProgress
    {
        public void OnPlanStarted(BenchmarkPlan plan)
        {
        }

        public void OnRunStarting(RunDescriptor run)
        {
            if (run.Sequence == 2) cts.Cancel();
        }

        public void OnRunCompleted(RunDescriptor run, RunRecord record)
        {
        }

        public void OnWarning(string message)
        {
        }
    }

    private sealed class CancelAfterFirstRun(CancellationTokenSource cts) : IBenchmarkProgress
    {
        public void OnPlanStarted(BenchmarkPlan plan)
        {
        }

        public void OnRunStarting(RunDescriptor run)
        {
        }

        public void OnRunCompleted(RunDescriptor run, RunRecord record) => cts.Cancel();

        public void OnWarning(string message)
        {
        }
    }

    [Fact]
    public async Task RunAsync_ClusterWarmup_RoundsOfEveryClientInTurnBeforeTheFirstRun_InNoRun()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = true };
        var b = new TestClientFactory(new InMemoryClientOptions { Name = "b" }) { RequiresBroker = true };
        var plan = new BenchmarkPlanBuilder().Clients("a", "b").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10_000)
            .Repeat(2).ClusterWarmup(TimeSpan.FromMilliseconds(300)).Build();

        var result = await ClusterRunner(a, b).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal(plan.TotalRuns, result.Runs.Count);
        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        // Rounds of 1 677 records of 10 KB (16 MiB), a's first, then b's, each on a topic of its own, before any run's.
        var rounds = a.Created.Concat(b.Created).Where(t => t.Contains("__cluster-warmup__", StringComparison.Ordinal)).ToList();
        Assert.True(rounds.Count >= 2, string.Join(", ", rounds));
        Assert.Equal("kafkaperf__cluster-warmup__a__1", a.Created.First());
        Assert.Equal("kafkaperf__cluster-warmup__b__2", b.Created.First());
        Assert.DoesNotContain(result.Runs, r => r.Topic.Contains("cluster-warmup", StringComparison.Ordinal));
        Assert.Equal(a.Created.Order(), a.Deleted.Order());
        Assert.Equal(b.Created.Order(), b.Deleted.Order());
        Assert.Matches($@"^{rounds.Count} round\(s\) of 1,677 × 10,000 B produced and consumed by a, b(, [ab])* in turn, \d+\.\d s$", result.ClusterWarmup);
        using var markdown = new StringWriter();
        new MarkdownExporter().Export(result, markdown);
        Assert.Contains($"- Cluster warm-up before the first run (in no figure): {result.ClusterWarmup}\n", markdown.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_ClusterWarmupRoundFails_WarmupStopsWithAWarningAndThePlanGoesOn()
    {
        // Its consumer loses key 42: a consume round fails, a produce run does not.
        var lossy = new TestClientFactory(new InMemoryClientOptions { Name = "lossy" }, dropKey: 42) { RequiresBroker = true };
        var plan = new BenchmarkPlanBuilder().Clients("lossy").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10)
            .Repeat(1).Warmup(false).ClusterWarmup(TimeSpan.FromSeconds(30)).StallTimeout(TimeSpan.FromMilliseconds(300)).Build();

        var result = await ClusterRunner(lossy).RunAsync(plan, cancellationToken: TestRunContext.Current);

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        Assert.StartsWith("1 round(s) of 100,000 × 10 B", result.ClusterWarmup, StringComparison.Ordinal);
        Assert.Contains("stopped early: lossy's round 1 failed (", result.ClusterWarmup, StringComparison.Ordinal);
        Assert.Single(result.Warnings, w => w.StartsWith("The cluster warm-up stopped early: lossy's round 1 failed", StringComparison.Ordinal));
        Assert.Equal(lossy.Created.Order(), lossy.Deleted.Order());
    }

    [Fact]
    public void Build_NegativeClusterWarmup_OneErrorSayingWhatToGive()
    {
        var error = Assert.Throws<PlanValidationException>(() => new BenchmarkPlanBuilder().Clients("a").ClusterWarmup(TimeSpan.FromSeconds(-1)).Build());

        Assert.Contains("--cluster-warmup 30s, or 0s for none", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_RatePlanOnAClusterStartedForIt_WarnsOnceUnlessTheClusterIsWarmedUp()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = true };
        var started = new ClusterConnection("cluster.invalid:9092") { Ephemeral = true, BrokerName = "the embedded cluster" };
        BenchmarkPlan Plan(TimeSpan clusterWarmup) => new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).PayloadSizes(10)
            .Rates(1_000).Duration(TimeSpan.FromMilliseconds(200)).Repeat(1).ClusterWarmup(clusterWarmup).Build();
        const string Cold = "The embedded cluster was started for this plan and has not served any load yet";

        var cold = await new BenchmarkRunner(new ClientRegistry([a]), started).RunAsync(Plan(TimeSpan.Zero), cancellationToken: TestRunContext.Current);
        var warm = await new BenchmarkRunner(new ClientRegistry([a]), started).RunAsync(Plan(TimeSpan.FromMilliseconds(100)), cancellationToken: TestRunContext.Current);
        var existing = await ClusterRunner(a).RunAsync(Plan(TimeSpan.Zero), cancellationToken: TestRunContext.Current);
        // A runner's second plan (find-rate's next probe) runs on a cluster that served the first.
        var coldRunner = new BenchmarkRunner(new ClientRegistry([a]), started);
        var first = await coldRunner.RunAsync(Plan(TimeSpan.Zero), cancellationToken: TestRunContext.Current);
        var second = await coldRunner.RunAsync(Plan(TimeSpan.Zero), cancellationToken: TestRunContext.Current);

        Assert.Single(cold.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal) && w.EndsWith("Give --cluster-warmup a length to warm it up first (the command line's default: 30s for one broker, 90s for several).", StringComparison.Ordinal));
        Assert.DoesNotContain(warm.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal));
        Assert.NotNull(warm.ClusterWarmup);
        Assert.DoesNotContain(existing.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal));
        Assert.Single(first.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal));
        Assert.DoesNotContain(second.Warnings, w => w.StartsWith(Cold, StringComparison.Ordinal));
    }

    [Fact]
    public async Task RunAsync_ClusterWarmupWithNoClientOfACluster_NoRoundsAndAWarningSaysSo()
    {
        var memory = new TestClientFactory(new InMemoryClientOptions { Name = "memory" });
        var plan = new BenchmarkPlanBuilder().Clients("memory").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10)
            .Repeat(1).Warmup(false).ClusterWarmup(TimeSpan.FromSeconds(30)).Build();

        var result = await Runner(memory).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.True(Assert.Single(result.Runs).Succeeded);
        Assert.Null(result.ClusterWarmup);
        Assert.DoesNotContain(memory.Created, t => t.Contains("__cluster-warmup__", StringComparison.Ordinal));
        Assert.Contains("The cluster warm-up was not run: no client of this plan uses a Kafka cluster.", result.Warnings);
    }
}
