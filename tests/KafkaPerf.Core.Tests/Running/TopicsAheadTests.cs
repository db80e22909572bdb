using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Running;

/// <summary>A cell's topics are created ahead of its runs, together, with the cluster asked about them together; each run
/// still deletes its own right after it - while the next run gets ready, but gone before its scenario starts - and a topic
/// whose run never came is deleted when the cell ends.</summary>
public sealed class TopicsAheadTests
{
    [Fact]
    public async Task RunAsync_ACell_CreatesItsTopicsAndAsksTheClusterBeforeItsFirstRunAndDeletesEachRightAfterItsRun()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip).MessageCounts(100)
            .PayloadSizes(10).Repeat(3).Build();

        var result = await Runner(log).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        var events = log.All;
        foreach (var cell in result.Runs.GroupBy(r => r.Scenario))
        {
            var topics = cell.Select(r => r.Topic).ToHashSet();
            int firstClient = events.FindIndex(e => topics.Contains(e.Topic) && e.What.StartsWith("producer", StringComparison.Ordinal));
            // Every topic of the cell created, and the cluster ready for it, before any client of the cell started.
            foreach (var topic in topics)
            {
                Assert.InRange(events.IndexOf((topic, "create")), 0, firstClient);
                Assert.InRange(events.IndexOf((topic, "ready")), events.IndexOf((topic, "create")), firstClient);
            }
            // Each run's topic deleted before the next run's clients start.
            var runs = cell.OrderBy(r => r.Sequence).ToList();
            for (int i = 0; i + 1 < runs.Count; i++)
            {
                int deleted = events.IndexOf((runs[i].Topic, "delete"));
                int next = events.FindIndex(e => e.Topic == runs[i + 1].Topic && e.What.StartsWith("producer", StringComparison.Ordinal));
                Assert.InRange(deleted, 0, next);
            }
        }
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
    }

    [Fact]
    public async Task RunAsync_ASlowDeletion_IsDoneBeforeTheNextRunsClientsStart()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(3).Build();

        var result = await Runner(log, deleteDelay: TimeSpan.FromMilliseconds(300)).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        var events = log.All;
        for (int i = 0; i + 1 < result.Runs.Count; i++)
        {
            int deleted = events.IndexOf((result.Runs[i].Topic, "deleted"));
            int next = events.IndexOf((result.Runs[i + 1].Topic, "producer"));
            Assert.InRange(deleted, 0, next);
        }
        // The last one before the plan returns.
        Assert.Contains((result.Runs[^1].Topic, "deleted"), events);
    }

    [Fact]
    public async Task RunAsync_AConsumeCell_FillsOneTopicReadByEveryRunInAGroupOfItsOwnAndDeletesItWhenTheCellEnds()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Consume, ScenarioKind.Produce).MessageCounts(100)
            .PayloadSizes(10).Repeat(3).Build();

        var result = await Runner(log).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        var consumes = result.Runs.Where(r => r.Scenario == ScenarioKind.Consume).ToList();
        Assert.Equal(4, consumes.Count);
        // Every run read every record of the one topic its first run filled: one producer, four groups.
        var topic = Assert.Single(consumes.Select(r => r.Topic).Distinct());
        Assert.All(consumes, r => Assert.Equal((100, 100, 0), (r.Delivered, r.Received, r.Lost)));
        var events = log.All.Where(e => e.Topic == topic).Select(e => e.What).ToList();
        Assert.Single(events, e => e == "producer");
        var groups = events.Where(e => e.StartsWith("consumer ", StringComparison.Ordinal)).ToList();
        Assert.Equal(4, groups.Distinct().Count());
        // Created once, the cluster asked about every group that reads it before any client started, deleted once after the
        // last read and before the next cell's first client.
        Assert.Equal(["create", "ready", "producer"], events.Take(3));
        Assert.Equal(["delete", "deleted"], events.TakeLast(2));
        Assert.Equal(groups.Select(g => g["consumer ".Length..]).Order(), log.GroupsAsked(topic).Order());
        int deleted = log.All.IndexOf((topic, "deleted"));
        int nextCell = log.All.FindIndex(e => e.Topic == result.Runs.First(r => r.Scenario == ScenarioKind.Produce).Topic && e.What == "producer");
        Assert.InRange(deleted, 0, nextCell);
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
    }

    [Fact]
    public async Task RunAsync_AReadOfTheFillFails_ThatRunDeletesItAndTheNextRunFillsATopicOfItsOwn()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Consume).MessageCounts(100).PayloadSizes(10).Repeat(3).Build();
        string second = TopicNaming.For(plan.TopicPrefix, "cluster", 100, 10, 2);

        var result = await Runner(log, refuses: group => group == ScenarioContext.GroupOf(second)).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal([true, false, true, true], result.Runs.Select(r => r.Succeeded));
        Assert.Contains("refused", result.Runs[1].Error);
        // The failed run read the warm-up's fill, then deleted it; the third filled its own, which the fourth read.
        Assert.Equal(result.Runs[0].Topic, result.Runs[1].Topic);
        Assert.Equal((TopicNaming.For(plan.TopicPrefix, "cluster", 100, 10, 3), result.Runs[2].Topic), (result.Runs[2].Topic, result.Runs[3].Topic));
        Assert.Equal(2, log.All.Count(e => e.What == "producer"));
        Assert.InRange(log.All.IndexOf((result.Runs[0].Topic, "deleted")), 0, log.All.IndexOf((result.Runs[2].Topic, "create")));
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
    }

    [Fact]
    public async Task RunAsync_CancelledWithinAConsumeCell_DeletesTheFill()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Consume).MessageCounts(100).PayloadSizes(10).Repeat(5).Build();
        using var cts = new CancellationTokenSource();

        var result = await Runner(log).RunAsync(plan, new CancelAfterRun(cts), cts.Token);

        Assert.True(result.Cancelled);
        Assert.True(Assert.Single(result.Runs).Succeeded);
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
    }

    [Fact]
    public async Task RunAsync_KeepTopics_FillsATopicPerConsume()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Consume).MessageCounts(100).PayloadSizes(10).Repeat(2)
            .Topics(keep: true).Build();

        var result = await Runner(log).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.Equal(3, result.Runs.Select(r => r.Topic).Distinct().Count());
        Assert.Equal(3, log.All.Count(e => e.What == "producer"));
        Assert.Empty(log.Deleted);
    }

    [Theory]
    [InlineData(1, 20, TopicsAhead.MaxTopics)]
    [InlineData(100, 4, TopicsAhead.MaxPartitions / 100)]
    public async Task RunAsync_ManyRuns_NeverMoreTopicsOrPartitionsAheadThanTheLimit(int partitions, int repeat, int mostAtOnce)
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10)
            .Partitions(partitions).Repeat(repeat).Build();

        var result = await Runner(log).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.Equal(repeat + 1, log.Created.Count);
        Assert.Equal(mostAtOnce, log.MostAtOnce);
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
    }

    [Fact]
    public async Task RunAsync_CancelledWithinACell_DeletesTheTopicsCreatedForRunsThatNeverCame()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(5).Build();
        using var cts = new CancellationTokenSource();

        var result = await Runner(log).RunAsync(plan, new CancelAfterRun(cts), cts.Token);

        Assert.True(result.Cancelled);
        var ran = Assert.Single(result.Runs);
        Assert.Equal(6, log.Created.Count);
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
        // No client touched a topic whose run never came.
        Assert.All(log.All.Where(e => e.What.StartsWith("producer", StringComparison.Ordinal)), e => Assert.Equal(ran.Topic, e.Topic));
    }

    [Fact]
    public async Task RunAsync_AReadyCheckFails_OnlyThatRunFailsAndItsTopicIsDeleted()
    {
        var log = new Log();
        var plan = new BenchmarkPlanBuilder().Clients("cluster").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(3).Build();
        var third = TopicNaming.For(plan.TopicPrefix, "cluster", 100, 10, 3);

        var result = await Runner(log, topic => topic == third ? "broker 2 did not know it" : null).RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.Equal([true, true, false, true], result.Runs.Select(r => r.Succeeded));
        Assert.Equal("the cluster was not ready for the run (--stall-timeout): broker 2 did not know it", result.Runs[2].Error);
        Assert.DoesNotContain(log.All, e => e.Topic == third && e.What.StartsWith("producer", StringComparison.Ordinal));
        Assert.Equal(log.Created.Order(), log.Deleted.Order());
    }

    private static BenchmarkRunner Runner(Log log, Func<string, string?>? notReady = null, TimeSpan deleteDelay = default, Func<string, bool>? refuses = null) =>
        new(new ClientRegistry([new LoggedClusterFactory(log.Add, deleteDelay: deleteDelay, refuses: refuses)]),
            new ClusterConnection("cluster.invalid:9092") { Readiness = new Readiness(log, notReady) });

    /// <summary>What happened to which topic, in order, and how many topics (and partitions) existed at most at once.</summary>
    private sealed class Log
    {
        private readonly List<(string Topic, string What)> _events = [];
        private int _live;

        public int MostAtOnce { get; private set; }

        public List<(string Topic, string What)> All
        {
            get
            {
                lock (_events) return [.. _events];
            }
        }

        public List<string> Created => [.. All.Where(e => e.What == "create").Select(e => e.Topic)];

        public List<string> Deleted => [.. All.Where(e => e.What == "delete").Select(e => e.Topic)];

        private readonly Dictionary<string, List<string>> _groups = [];

        public List<string> GroupsAsked(string topic)
        {
            lock (_events) return _groups.TryGetValue(topic, out var groups) ? [.. groups] : [];
        }

        public void Asked(string topic, IEnumerable<string> groups)
        {
            lock (_events)
            {
                if (!_groups.TryGetValue(topic, out var list)) _groups[topic] = list = [];
                list.AddRange(groups);
            }
        }

        public void Add(string topic, string what)
        {
            lock (_events)
            {
                _events.Add((topic, what));
                if (what == "create") MostAtOnce = Math.Max(MostAtOnce, ++_live);
                else if (what == "delete") _live--;
            }
        }
    }

    private sealed class Readiness(Log log, Func<string, string?>? notReady) : IClusterReadiness
    {
        public ValueTask<string?> WaitUntilReadyAsync(string topic, IReadOnlyList<string> groups, TimeSpan timeout, CancellationToken cancellationToken)
        {
            log.Add(topic, "ready");
            log.Asked(topic, groups);
            return ValueTask.FromResult(notReady?.Invoke(topic));
        }
    }

    private sealed class CancelAfterRun(CancellationTokenSource cts) : IBenchmarkProgress
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
}
