using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Network;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Network;

/// <summary>A three-node embedded cluster behind the shaping proxies, its brokers fenced after 3 s of silence, for the
/// network faults.</summary>
public sealed class PartitionClusterFixture : KafkaPerf.Adapters.Tests.Broker.ThreeNodeClusterFixture
{
    protected override TimeSpan SessionTimeout => TimeSpan.FromSeconds(3);

    protected override bool ShapedNetwork => true;
}

/// <summary>Network faults through the proxies, inside runs at a rate on a real three-node cluster: the node's process
/// keeps running while its links are cut, held or slowed, the cluster reacts as it would to a real network, and the
/// links heal.</summary>
public sealed class NetworkFaultTests(PartitionClusterFixture fixture) : IClassFixture<PartitionClusterFixture>
{
    private static readonly TimeSpan Warmup = TimeSpan.FromMilliseconds(500);

    [Fact]
    public async Task PartitionLeader_ANewLeaderIsElectedWhileTheNodeRunsAndTheLinksHeal()
    {
        var pids = fixture.Cluster.Nodes.Select(n => n.ProcessId).ToList();
        // Long enough for the slowest way: the leader may be the active controller too, whose quorum elects another
        // controller first (its self-links are never cut, as on a host), which then fences it.
        var plan = Plan("partition:leader@2s+12s", TimeSpan.FromSeconds(16));

        var result = await Runner().RunAsync(plan, cancellationToken: TestPaths.Timeout(4));

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        var fault = Assert.Single(run.Faults!);
        Assert.Null(fault.Error);
        Assert.Contains("still running", fault.Did, StringComparison.Ordinal);
        Assert.Contains("held open and silent", fault.Did, StringComparison.Ordinal);
        Assert.Equal(fault.LeaderBefore, fault.Node);
        // The node's peers and the controllers stopped hearing it: it was fenced after its session timeout (3 s here) and
        // another replica leads, though its process never stopped.
        Assert.True(fault.NewLeader is not null, Said(fault));
        Assert.NotEqual(fault.LeaderBefore, fault.NewLeader);
        Assert.True(fault.ElectionSeconds >= 1, $"election after {fault.ElectionSeconds} s: before the session timeout");
        Assert.DoesNotContain(fault.Node!.Value.ToString(System.Globalization.CultureInfo.InvariantCulture), fault.InSyncAfter, StringComparison.Ordinal);
        Assert.True(fault.BackAtSeconds >= Warmup.TotalSeconds + 14, $"healed at {fault.BackAtSeconds} s, asked 14 s into the measured part");
        Assert.True(fault.Verified, fault.NotVerifiedReason);
        Assert.Equal((0L, 0L), (fault.Lost, fault.Duplicated));
        // The same processes throughout: nothing was killed, paused or restarted, and after healing every node serves
        // and the cluster is whole (the runner healed it before saying the run was done).
        Assert.Equal(pids, fixture.Cluster.Nodes.Select(n => n.ProcessId).ToList());
        Assert.All(fixture.Cluster.Nodes, n => Assert.True(n.IsServing, $"node {n.NodeId} is not serving"));
        Assert.NotNull(fault.HealSeconds);
        Assert.DoesNotContain(result.Warnings, w => w.Contains("could not be deleted", StringComparison.Ordinal));
        Assert.False(fixture.Cluster.Proxies!.RestoreAll(), "a link was still cut after the run");
    }

    [Theory]
    [InlineData("partition:leader-from-clients@2s+3s")]
    [InlineData("slow:leader@2s+3s:rtt=300ms")]
    public async Task CutFromClientsOrSlowed_TheLeaderStaysAndTheClientWaitsOutTheFault(string spec)
    {
        var plan = Plan(spec, TimeSpan.FromSeconds(7));

        var result = await Runner().RunAsync(plan, cancellationToken: TestPaths.Timeout(3));

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        var fault = Assert.Single(run.Faults!);
        Assert.Null(fault.Error);
        // The cluster's own links were left alone: nobody was fenced, the leader stayed.
        Assert.True(fault.NewLeader is null, Said(fault));
        Assert.True(fault.InSyncChangeSeconds is null, Said(fault));
        if (spec.StartsWith("partition", StringComparison.Ordinal))
        {
            // Nothing came back while the leader's client links were silent: the first acknowledgement after the fault came
            // once they healed. The heal is due 3 s after the fault's time, so a cut that took a while to apply is silent for
            // less than 3 s (once in CI: healed 2.87 s after it fired): the bound is the silence as it was.
            Assert.True(fault.BackAtSeconds - fault.FiredAtSeconds >= 2, Said(fault));
            Assert.True(fault.FirstAckAfterFaultSeconds >= fault.BackAtSeconds - fault.FiredAtSeconds - 0.1, Said(fault));
        }
        else
        {
            // Every request to the leader took the extra 300 ms round trip at least.
            Assert.True(fault.PeakResponseMicros >= 300_000, Said(fault));
        }
        Assert.True(fault.Verified, fault.NotVerifiedReason);
        Assert.Equal(0L, fault.Lost);
        Assert.False(fixture.Cluster.Proxies!.RestoreAll(), "a link was still cut or slow after the run");
    }

    [Fact]
    public async Task IsolateLeader_ConnectionsResetAndANewLeaderIsElected()
    {
        var plan = Plan("isolate:leader@2s+12s", TimeSpan.FromSeconds(16));

        var result = await Runner().RunAsync(plan, cancellationToken: TestPaths.Timeout(4));

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        var fault = Assert.Single(run.Faults!);
        Assert.Null(fault.Error);
        Assert.Contains("reset", fault.Did, StringComparison.Ordinal);
        Assert.True(fault.NewLeader is not null, Said(fault));
        Assert.NotEqual(fault.LeaderBefore, fault.NewLeader);
        Assert.True(fault.Verified, fault.NotVerifiedReason);
        Assert.Equal(0L, fault.Lost);
    }

    [Fact]
    public void PeerLinks_AreToldByTheNodeThatOpenedThem()
    {
        // Every node fetches from the others and heartbeats to the controllers: each peer proxy's connections come from
        // known nodes (a node's own admin client reaches itself through its proxy too), and from more than one.
        var proxies = fixture.Cluster.Proxies!;
        var sources = Enumerable.Range(1, 3).SelectMany(n => proxies.InternalProxy(n).Connections.Concat(proxies.ControllerProxy(n)!.Connections)
            .Select(c => (To: n, From: c.SourceNode))).ToList();
        Assert.NotEmpty(sources);
        Assert.All(sources, s => Assert.True(s.From is >= 1 and <= 3, $"a link to node {s.To} from an unknown process"));
        Assert.Contains(sources, s => s.From != s.To);
        // The brokers reach the active controller at the address it registered, not the voters' (KIP-919): a controller
        // advertises its proxy, or a partition of it left the brokers' heartbeats flowing (the partitioned controller then
        // fenced the healthy brokers).
        Assert.All(fixture.Cluster.Nodes, n => Assert.Contains($"CONTROLLER://127.0.0.1:{proxies.ControllerProxy(n.NodeId)!.Port}", n.Config["advertised.listeners"], StringComparison.Ordinal));
    }

    /// <summary>What the fault record says, for a failure's message.</summary>
    private static string Said(FaultRecord fault) => System.Text.Json.JsonSerializer.Serialize(fault);

    /// <summary>acks=all with idempotence: a request held through a partition and answered after it heals is retried
    /// without a duplicate.</summary>
    private static BenchmarkPlan Plan(string fault, TimeSpan duration) =>
        new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce).Topics("netfault-" + fault.Split('@')[0].Replace(':', '-'))
            .PayloadSizes(100).Rates(500).Duration(duration).LoadWarmup(Warmup).Repeat(1).Replication(3, 2).StallTimeout(TimeSpan.FromSeconds(20))
            .Settings(new ClientSettings { Acks = AcksMode.All, LingerMs = 1 }).Faults([fault])
            .Override("confluent", "enable.idempotence", "true").Build();

    private BenchmarkRunner Runner() => new(new ClientRegistry([new ConfluentClientFactory()]), fixture.Broker.Connection);
}
