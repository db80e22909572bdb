using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Faults;

/// <summary>The runner's side of faults, on the in-memory client with a cluster stand-in that records what it was asked:
/// when faults fire, what the run records of them, healing between runs, and a run that fails before its schedule.</summary>
public sealed class FaultRunTests
{
    [Fact]
    public async Task RunAsync_AFaultAtOneSecond_FiresAtItsTimeSeesTheElectionHealsAfterEachRunAndReadsTheTopicBack()
    {
        var cluster = new Cluster();
        var plan = Plan("kill:leader@1s").Repeat(2).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions { ReportsDeliveryLatency = true })]),
            new ClusterConnection("stand-in") { Faults = cluster, Brokers = 3 }).RunAsync(plan, cancellationToken: Timeout());

        Assert.Equal(2, result.Runs.Count);
        foreach (var run in result.Runs)
        {
            Assert.True(run.Succeeded, run.Error);
            var fault = Assert.Single(run.Faults!);
            // 0.5 s of warm-up, then 1 s into the measured part.
            Assert.InRange(fault.FiredAtSeconds!.Value, 1.5, 2.5);
            Assert.Equal(1, fault.LeaderBefore);
            Assert.Equal(2, fault.NewLeader);
            Assert.InRange(fault.ElectionSeconds!.Value, 0.2, 2);
            Assert.Equal("1,2,3", fault.InSyncBefore);
            Assert.Equal("2,3", fault.InSyncAfter);
            // The in-memory client acknowledges through the stand-in's "fault": records due after it come back at once.
            Assert.InRange(fault.FirstAckAfterFaultSeconds!.Value, 0, 0.5);
            Assert.Equal(0, fault.Lost);
            Assert.Equal(0, fault.Duplicated);
            Assert.NotNull(fault.HealSeconds);
        }
        // Once before the first run, once after each.
        Assert.Equal(3, cluster.Heals);
        Assert.Equal(2, cluster.Fired);
    }

    [Fact]
    public async Task RunAsync_ARunThatFailsBeforeItsScheduleStarts_EndsWithTheFaultNotFiredAndThePlanGoesOn()
    {
        var cluster = new Cluster();
        var plan = Plan("kill:leader@1s", "broken").Build();
        var started = Stopwatch.StartNew();

        var result = await new BenchmarkRunner(new ClientRegistry([new BrokenFactory()]), new ClusterConnection("stand-in") { Faults = cluster, Brokers = 3 })
            .RunAsync(plan, cancellationToken: Timeout());

        var run = Assert.Single(result.Runs);
        Assert.False(run.Succeeded);
        Assert.Equal("the run ended before the fault's time", Assert.Single(run.Faults!).Error);
        Assert.Equal(0, cluster.Fired);
        Assert.True(started.Elapsed < TimeSpan.FromSeconds(20), $"the plan took {started.Elapsed.TotalSeconds:0.0} s");
    }

    private static BenchmarkPlanBuilder Plan(string fault, string client = "inmemory") =>
        new BenchmarkPlanBuilder().Clients(client).Scenarios(ScenarioKind.Produce).PayloadSizes(100).Rates(1_000)
            .Duration(TimeSpan.FromSeconds(3)).LoadWarmup(TimeSpan.FromMilliseconds(500)).Repeat(1).StallTimeout(TimeSpan.FromSeconds(5))
            .Faults([fault]);

    private static CancellationToken Timeout() => new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token;

    /// <summary>A cluster stand-in: leader 1 with replicas 1,2,3 until a fault fires, then leader 2 with 2,3 from 300 ms on.</summary>
    private sealed class Cluster : IFaultInjector
    {
        private long _firedAt;

        public int Fired;

        public int Heals;

        public string? Refuse(FaultSpec fault) => null;

        public Task<FaultAction> FireAsync(FaultSpec fault, string topic, Action fired, CancellationToken cancellationToken)
        {
            fired();
            Interlocked.Increment(ref Fired);
            Volatile.Write(ref _firedAt, Stopwatch.GetTimestamp());
            return Task.FromResult(new FaultAction(fault, 1, "stood in for a kill of node 1"));
        }

        public Task EndAsync(FaultAction action, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<PartitionState?> PartitionAsync(string topic, CancellationToken cancellationToken)
        {
            long at = Volatile.Read(ref _firedAt);
            bool elected = at != 0 && Stopwatch.GetElapsedTime(at) > TimeSpan.FromMilliseconds(300);
            return Task.FromResult<PartitionState?>(elected ? new PartitionState(2, [2, 3]) : new PartitionState(1, [1, 2, 3]));
        }

        public Task<string?> HealAsync(TimeSpan timeout, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref Heals);
            Volatile.Write(ref _firedAt, 0);
            return Task.FromResult<string?>(null);
        }
    }

    /// <summary>A client whose producer cannot be made: its runs fail before their schedule starts.</summary>
    private sealed class BrokenFactory : IBenchClientFactory
    {
        private readonly InMemoryClientFactory _inner = new(new InMemoryClientOptions { Name = "broken" });

        public string Name => "broken";

        public string Description => "a producer that cannot be made";

        public bool RequiresBroker => false;

        public IBenchClient Create(KafkaEndpoint endpoint) => new BrokenClient(_inner.Create(endpoint));

        private sealed class BrokenClient(IBenchClient inner) : IBenchClient
        {
            public string Name => "broken";

            public string LibraryVersion => "0";

            public ClientCapabilities Capabilities => ClientCapabilities.None;

            public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink) => throw new InvalidOperationException("no producer here");

            public IBenchConsumer CreateConsumer(ConsumerSpec spec) => inner.CreateConsumer(spec);

            public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken) => inner.CreateTopicAsync(topic, cancellationToken);

            public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) => inner.DeleteTopicAsync(topic, cancellationToken);

            public ValueTask DisposeAsync() => inner.DisposeAsync();
        }
    }
}
