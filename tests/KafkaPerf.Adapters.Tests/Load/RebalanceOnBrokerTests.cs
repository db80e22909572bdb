using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Load;

/// <summary>A broker whose consumer-protocol groups time out as fast as the classic ones of these tests: a 6 s session and
/// 1 s heartbeats (the broker's own settings under KIP-848; the defaults, 45 s and 5 s, would make every crash a minute).</summary>
public sealed class RebalanceBrokerFixture : IAsyncLifetime
{
    private EmbeddedKafkaBroker? _broker;

    public EmbeddedKafkaBroker Broker => _broker ?? throw new InvalidOperationException("The broker has not started.");

    public async ValueTask InitializeAsync() =>
        _broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions
        {
            HeapMegabytes = 384,
            ExtraConfig = new Dictionary<string, string>
            {
                ["group.consumer.session.timeout.ms"] = "6000", ["group.consumer.min.session.timeout.ms"] = "6000",
                ["group.consumer.heartbeat.interval.ms"] = "1000", ["group.consumer.min.heartbeat.interval.ms"] = "1000",
            },
        }, TestContext.Current.CancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (_broker is not null) await _broker.DisposeAsync();
    }
}

/// <summary>Membership events inside a run at a rate, for each client and each group protocol, on the real embedded broker:
/// a member busy for 3 s, a join while it is, a leave and a crash, one after another in one run, each followed by a stable
/// group, nothing lost.</summary>
public sealed class RebalanceOnBrokerTests(RebalanceBrokerFixture fixture) : IClassFixture<RebalanceBrokerFixture>
{
    private static readonly string[] Events = ["busy:consumer@500ms+3s", "join:consumer@1s", "leave:consumer@5s", "crash:consumer@9s"];

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    public async Task RunAsync_BusyJoinLeaveCrashUnderEachProtocol_StableAfterEachOnlyEagerStopsTheOthersForTheBusyMember(string client)
    {
        // The classic session and heartbeat are the client's: the same 6 s and 1 s as the broker's for the consumer protocol
        // (which refuses them as client settings: a plan of its own).
        var classic = Plan(client).GroupProtocol(GroupProtocol.Classic).Assignor(GroupAssignor.Range, GroupAssignor.CooperativeSticky)
            .Override(client, "session.timeout.ms", "6000").Override(client, "heartbeat.interval.ms", "1000").Build();
        var consumer = Plan(client).GroupProtocol(GroupProtocol.Consumer).Build();

        var classicResult = await Runner().RunAsync(classic, cancellationToken: TestPaths.Timeout());
        var consumerResult = await Runner().RunAsync(consumer, cancellationToken: TestPaths.Timeout());

        var runs = classicResult.Runs.Concat(consumerResult.Runs).Where(r => !r.IsWarmup).ToList();
        Assert.Equal(3, runs.Count);
        foreach (var run in runs) AssertBusyJoinLeaveCrash(run);
        var eager = runs.Single(r => r.Variant.Contains("assignor=range", StringComparison.Ordinal));
        var cooperative = runs.Single(r => r.Variant.Contains("assignor=cooperative-sticky", StringComparison.Ordinal));
        var kip848 = runs.Single(r => r.Variant.Contains("group.protocol=consumer", StringComparison.Ordinal));
        // An eager assignor revokes every partition at every rebalance and gives a member's back: the join's rebalance
        // took the kept ones from their readers too; cooperative-sticky revokes only those that move, and the consumer
        // protocol moves partitions one member at a time: no member lost a partition it kept, at any event.
        var join = Join(eager);
        Assert.True(join.Members.Sum(m => m.KeptRevoked) > 0, Describe(join));
        foreach (var incremental in new[] { cooperative, kip848 })
        {
            Assert.All(incremental.Rebalances!, e => Assert.Equal(0, e.Members.Sum(m => m.KeptRevoked)));
            Assert.True(Join(incremental).Members.Sum(m => m.Kept) > 0, Describe(Join(incremental)));
        }
        // What that costs the member that was not busy (member 2): under range it gave up the partitions it kept and
        // waited for the busy member to join the rebalance, its next poll 3.5 s in; the others kept reading them.
        double eagerGap = KeptGapOfTheOther(eager);
        Assert.True(eagerGap >= 1, $"{eager.Variant}: {Describe(Join(eager))}");
        Assert.True(KeptGapOfTheOther(cooperative) < eagerGap, $"{Describe(Join(cooperative))} / {Describe(Join(eager))}");
        Assert.True(KeptGapOfTheOther(kip848) < eagerGap, $"{Describe(Join(kip848))} / {Describe(Join(eager))}");
    }

    private static RebalanceRecord Join(RunRecord run) => run.Rebalances![1];

    private static double KeptGapOfTheOther(RunRecord run) =>
        Join(run).Members.Single(m => m.Member == 2).KeptGapSeconds ?? throw new InvalidOperationException($"{run.Variant}: member 2 kept nothing: {Describe(Join(run))}");

    private static void AssertBusyJoinLeaveCrash(RunRecord run)
    {
        Assert.True(run.Succeeded, $"{run.Variant}: {run.Error}");
        Assert.Equal(0, run.Lost);
        Assert.Equal(run.Sent, run.Received - run.Duplicates);
        Assert.Equal(Events, run.Rebalances!.Select(e => e.Event));
        var events = run.Rebalances!;
        var (busy, join, leave, crash) = (events[0], events[1], events[2], events[3]);
        // Busy is no membership change: the group stayed settled, and the busy member went without records meanwhile.
        Assert.Equal(0, busy.StableAfterSeconds);
        Assert.True(busy.Members.Single(m => m.Member == 1).KeptGapSeconds >= 0.3, $"{run.Variant}: {Describe(busy)}");
        foreach (var e in events)
        {
            Assert.True(e.Error is null && e.FiredAtSeconds is not null, $"{e.Event}: {e.Error}");
            Assert.True(e.StableAfterSeconds is not null, $"{run.Variant}: {Describe(e)}");
            // The coordinator (asked with the Admin API) had the group settled too, about when the members' callbacks said so.
            Assert.True(e.CoordinatorStableAfterSeconds is not null, $"{run.Variant}: {Describe(e)}");
            Assert.True(Math.Abs(e.CoordinatorStableAfterSeconds!.Value - e.StableAfterSeconds!.Value) < 1.5, $"{run.Variant}: {Describe(e)}");
        }
        Assert.Contains(join.Members, m => m.Member == 3 && m.Live && m.Gained > 0);
        Assert.Contains(leave.Members, m => m.Member == 1 && !m.Live && m.Gave > 0);
        Assert.Contains(crash.Members, m => m.Member == 2 && !m.Live && m.Gave > 0);
        // A leave is acted on at once; a crash only once the member's 6 s session, renewed every second until the crash,
        // has run out.
        Assert.True(leave.StableAfterSeconds < 4, $"{run.Variant}: {Describe(leave)}");
        Assert.True(crash.StableAfterSeconds >= 4.5, $"{run.Variant}: {Describe(crash)}");
        Assert.True(crash.StableAfterSeconds > leave.StableAfterSeconds, $"{run.Variant}: {Describe(leave)} / {Describe(crash)}");
        // The coordinator listed the crashed member until its session ended: the group was not settled in its eyes before.
        Assert.True(leave.CoordinatorStableAfterSeconds < 4, $"{run.Variant}: {Describe(leave)}");
        Assert.True(crash.CoordinatorStableAfterSeconds >= 4.5, $"{run.Variant}: {Describe(crash)}");
        // Its partitions went unread until then.
        Assert.True(crash.LongestGainedGapSeconds >= 4.5, $"{run.Variant}: {Describe(crash)}");
    }

    private static string Describe(RebalanceRecord e) => Reporting.Tables.RebalanceTables.Describe(e);

    // The crash at 9 s settles about 6 s later; the run goes on 2 s more, so that the coordinator, asked every 0.1 s, is
    // seen settled inside the crash's window too (its window ends with the run).
    private static BenchmarkPlanBuilder Plan(string client) =>
        new BenchmarkPlanBuilder().Clients(client).Scenarios(ScenarioKind.Roundtrip).PayloadSizes(100).Rates(1_000)
            .Settings(new ClientSettings { Acks = AcksMode.Leader, LingerMs = 1 })
            .Duration(TimeSpan.FromSeconds(17)).LoadWarmup(TimeSpan.FromSeconds(1)).Partitions(6).Consumers(2).Faults(Events).Repeat(1).Warmup(false);

    private BenchmarkRunner Runner() => new(new ClientRegistry([new ConfluentClientFactory(), new JavaClientFactory(false, JavaTestJvm.Options)]),
        new ClusterConnection(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion)
        {
            BrokerDescription = "embedded", GroupCoordinator = new ConfluentGroupCoordinatorView(fixture.Broker.BootstrapServers),
        });
}
