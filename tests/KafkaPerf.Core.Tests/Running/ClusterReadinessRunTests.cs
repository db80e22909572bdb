using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Running;

/// <summary>Where the runner asks the connection's readiness, with a stand-in that records what it was asked (the real
/// one, on a real cluster, is tested in the adapters' tests): after a run's topic is created and before any client touches
/// it, for every group the run's consumers use, after healing, and never for a client that uses no cluster.</summary>
public sealed class ClusterReadinessRunTests
{
    [Theory]
    [InlineData(ScenarioKind.Consume)]
    [InlineData(ScenarioKind.Roundtrip)]
    public async Task RunAsync_AClientOnTheCluster_AsksForTheTopicAndEveryGroupItsConsumersUseAfterCreatingItBeforeAnyClientStarts(ScenarioKind scenario)
    {
        var log = new Log();
        var readiness = new Readiness(log);
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(scenario).MessageCounts(200).PayloadSizes(10).Repeat(1)
            .StallTimeout(TimeSpan.FromSeconds(7)).Build();

        var result = await Runner(Clients(log), readiness).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        // A consume cell's runs read the one topic its first run filled, each in a group of its own.
        var topics = result.Runs.Select(r => r.Topic).Distinct().ToList();
        Assert.Equal(scenario == ScenarioKind.Consume ? 1 : result.Runs.Count, topics.Count);
        Assert.Equal(topics.Count, readiness.Asked.Count);
        foreach (var topic in topics)
        {
            var events = log.Of(topic);
            int created = events.IndexOf("create");
            int ready = events.IndexOf("ready");
            Assert.True(created >= 0 && ready > created, string.Join(", ", events));
            // No producer or consumer before the cluster was ready.
            Assert.All(events.Take(ready), e => Assert.DoesNotMatch("^(producer|consumer)", e));
            Assert.Equal(result.Runs.Count(r => r.Topic == topic), events.Count(e => e.StartsWith("consumer", StringComparison.Ordinal)));
            var asked = Assert.Single(readiness.Asked, a => a.Topic == topic);
            Assert.Equal(TimeSpan.FromSeconds(7), asked.Timeout);
            foreach (var group in events.Where(e => e.StartsWith("consumer ", StringComparison.Ordinal)).Select(e => e["consumer ".Length..]))
                Assert.Contains(group, asked.Groups);
        }
    }

    [Fact]
    public async Task RunAsync_TheClusterNotReady_FailsThatRunWithTheLineNoClientStartsNothingIsCountedLostAndThePlanGoesOn()
    {
        var log = new Log();
        const string Line = "broker 3 (127.0.0.1:40123) did not know topic 't' after 7 s (not listed)";
        int asked = 0;
        var readiness = new Readiness(log, _ => Interlocked.Increment(ref asked) == 1 ? Line : null);
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Consume).MessageCounts(200).PayloadSizes(10).Repeat(2)
            .StallTimeout(TimeSpan.FromSeconds(7)).Build();

        var result = await Runner(Clients(log), readiness).RunAsync(plan, cancellationToken: TestRunContext.Current);

        var failed = result.Runs[0];
        Assert.False(failed.Succeeded);
        Assert.Equal($"the cluster was not ready for the run (--stall-timeout): {Line}", failed.Error);
        Assert.Equal(0, failed.Lost);
        Assert.DoesNotContain(log.Of(failed.Topic), e => e.StartsWith("producer", StringComparison.Ordinal) || e.StartsWith("consumer", StringComparison.Ordinal));
        // Its topic is deleted all the same, and the next runs go on.
        Assert.Contains("delete", log.Of(failed.Topic));
        Assert.All(result.Runs.Skip(1), r => Assert.True(r.Succeeded, r.Error));
        Assert.Null(result.AbortReason);
    }

    [Fact]
    public async Task RunAsync_AClientThatUsesNoCluster_IsNotWaitedFor()
    {
        var log = new Log();
        var readiness = new Readiness(log, _ => "must not be asked");
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Consume).MessageCounts(200).PayloadSizes(10).Repeat(1).Build();

        var result = await Runner(new InMemoryClientFactory(new InMemoryClientOptions()), readiness).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.Empty(readiness.Asked);
    }

    [Fact]
    public async Task RunAsync_ARunWithAFault_AsksForTheReadBacksGroupBeforeTheRunAndForTheTopicAgainOnceHealed()
    {
        var log = new Log();
        var readiness = new Readiness(log);
        var cluster = new Cluster(log);

        var result = await Runner(Clients(log), readiness, cluster).RunAsync(FaultPlan(), cancellationToken: TestRunContext.Current);

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        var events = log.Of(run.Topic);
        // Ready before the run, healed after it, then ready again - before the topic is deleted.
        int first = events.IndexOf("ready");
        int healed = events.IndexOf("healed");
        int again = events.LastIndexOf("ready");
        Assert.True(first >= 0 && healed > first && again > healed && events.IndexOf("delete") > again, string.Join(", ", events));
        var before = readiness.Asked[0];
        Assert.Equal([run.Topic + "__group", run.Topic + "__readback"], before.Groups);
        // The read-back's consumer used a group that was asked about.
        var consumers = events.Where(e => e.StartsWith("consumer ", StringComparison.Ordinal)).Select(e => e["consumer ".Length..]).ToList();
        Assert.Contains(run.Topic + "__readback", consumers);
        Assert.All(consumers, g => Assert.Contains(g, before.Groups));
        Assert.Equal(before.Groups, readiness.Asked[1].Groups);
    }

    [Fact]
    public async Task RunAsync_HealedButNotReady_StopsThePlanWithTheLine()
    {
        var log = new Log();
        const string Line = "the coordinator of group 'g' did not answer after 5 s (no answer)";
        int asked = 0;
        var readiness = new Readiness(log, _ => Interlocked.Increment(ref asked) == 2 ? Line : null);

        var result = await Runner(Clients(log), readiness, new Cluster(log)).RunAsync(FaultPlan(repeat: 2), cancellationToken: TestRunContext.Current);

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        Assert.Equal($"the cluster was healed after run 1 but not ready for clients ({Line}; --stall-timeout), and no run starts on a damaged cluster", result.AbortReason);
    }

    private static BenchmarkPlan FaultPlan(int repeat = 1) =>
        new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Produce).PayloadSizes(100).Rates(500)
            .Duration(TimeSpan.FromSeconds(2)).LoadWarmup(TimeSpan.FromMilliseconds(200)).Repeat(repeat).StallTimeout(TimeSpan.FromSeconds(5))
            .Faults(["kill:leader@1s"]).Build();

    private static LoggedClusterFactory Clients(Log log) =>
        new(log.Add, new InMemoryClientOptions { Name = "cluster", ReportsDeliveryLatency = true });

    private static BenchmarkRunner Runner(IBenchClientFactory factory, Readiness readiness, IFaultInjector? faults = null) =>
        new(new ClientRegistry([factory]), new ClusterConnection("cluster.invalid:9092") { Readiness = readiness, Faults = faults, Brokers = 3 });

    /// <summary>What happened, in order, by topic.</summary>
    private sealed class Log
    {
        private readonly List<(string Topic, string What)> _events = [];

        public void Add(string topic, string what)
        {
            lock (_events) _events.Add((topic, what));
        }

        public List<string> Of(string topic)
        {
            lock (_events) return [.. _events.Where(e => e.Topic == topic).Select(e => e.What)];
        }
    }

    private sealed class Readiness(Log log, Func<string, string?>? answer = null) : IClusterReadiness
    {
        private readonly List<(string Topic, string[] Groups, TimeSpan Timeout)> _asked = [];

        public IReadOnlyList<(string Topic, string[] Groups, TimeSpan Timeout)> Asked
        {
            get
            {
                lock (_asked) return [.. _asked];
            }
        }

        public ValueTask<string?> WaitUntilReadyAsync(string topic, IReadOnlyList<string> groups, TimeSpan timeout, CancellationToken cancellationToken)
        {
            lock (_asked) _asked.Add((topic, [.. groups], timeout));
            log.Add(topic, "ready");
            return ValueTask.FromResult(answer?.Invoke(topic));
        }
    }

    /// <summary>A cluster stand-in whose fault does nothing and whose healing is logged against the topic it fired on.</summary>
    private sealed class Cluster(Log log) : IFaultInjector
    {
        private string? _topic;

        public string? Refuse(FaultSpec fault) => null;

        public Task<FaultAction> FireAsync(FaultSpec fault, string topic, Action fired, CancellationToken cancellationToken)
        {
            _topic = topic;
            fired();
            return Task.FromResult(new FaultAction(fault, 1, "stood in for a kill of node 1"));
        }

        public Task EndAsync(FaultAction action, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<PartitionState?> PartitionAsync(string topic, CancellationToken cancellationToken) =>
            Task.FromResult<PartitionState?>(new PartitionState(1, [1, 2, 3]));

        public Task<string?> HealAsync(TimeSpan timeout, CancellationToken cancellationToken)
        {
            if (_topic is { } topic) log.Add(topic, "healed");
            return Task.FromResult<string?>(null);
        }
    }
}
