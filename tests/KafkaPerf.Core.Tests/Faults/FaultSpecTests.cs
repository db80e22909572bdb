using KafkaPerf.Clients;
using KafkaPerf.Running.Faults;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Faults;

public sealed class FaultSpecTests
{
    [Theory]
    [InlineData("kill:leader@10s", FaultKind.Kill, FaultTarget.Leader, null, 10.0, null)]
    [InlineData("restart:node:2@1.5s+5s", FaultKind.Restart, FaultTarget.Node, 2, 1.5, 5.0)]
    [InlineData("pause:controller@500ms+2s", FaultKind.Pause, FaultTarget.Controller, null, 0.5, 2.0)]
    [InlineData("STOP:Leader@1m", FaultKind.Stop, FaultTarget.Leader, null, 60.0, null)]
    [InlineData("move-leader@3s", FaultKind.MoveLeader, FaultTarget.Leader, null, 3.0, null)]
    [InlineData("exec@3s+30s:kubectl delete pod kafka-1", FaultKind.Exec, FaultTarget.Leader, null, 3.0, 30.0)]
    [InlineData("partition:leader@10s+20s", FaultKind.Partition, FaultTarget.Leader, null, 10.0, 20.0)]
    [InlineData("partition:node:2-from-clients@1s", FaultKind.Partition, FaultTarget.Node, 2, 1.0, null)]
    [InlineData("isolate:controller@2s+3s", FaultKind.Isolate, FaultTarget.Controller, null, 2.0, 3.0)]
    [InlineData("slow:leader@10s+20s:rtt=200ms", FaultKind.Slow, FaultTarget.Leader, null, 10.0, 20.0)]
    public void Parse_EverySpelling_ReadsItAndWritesItBackToAnEqualFault(string text, FaultKind kind, FaultTarget target, int? node, double at, double? length)
    {
        var fault = FaultSpec.Parse(text);

        Assert.Equal(kind, fault.Kind);
        Assert.Equal(target, fault.Target);
        Assert.Equal(node, fault.Node);
        Assert.Equal(TimeSpan.FromSeconds(at), fault.At);
        Assert.Equal(length is { } l ? TimeSpan.FromSeconds(l) : null, fault.For);
        Assert.Equal(fault, FaultSpec.Parse(fault.ToString()));
    }

    [Fact]
    public void Parse_NetworkFaults_SayWhatTheyCutAndWhetherTheNodeCountsAsDown()
    {
        var partition = FaultSpec.Parse("partition:leader@10s+20s");
        var fromClients = FaultSpec.Parse("partition:leader-from-clients@10s");
        var slow = FaultSpec.Parse("slow:node:3@1s+2s:rtt=0.5s");

        Assert.True(partition.IsNetwork && partition.TakesNodeDown);
        Assert.Equal(TimeSpan.FromSeconds(30), partition.BackAt);
        Assert.Equal("cut the leader of the run's partition off from clients and peers, its connections held open and silent, healed 20s later", partition.Describe());
        // Cut from its clients only, the node stays in the cluster; without a length it lasts to the end of the run.
        Assert.True(fromClients.ClientsOnly);
        Assert.False(fromClients.TakesNodeDown);
        Assert.Null(fromClients.BackAt);
        Assert.Equal("partition:leader-from-clients@10s", fromClients.ToString());
        Assert.Equal(TimeSpan.FromMilliseconds(500), slow.SlowRtt);
        Assert.Equal("slow:node:3@1s+2s:rtt=500ms", slow.ToString());
        Assert.False(slow.TakesNodeDown);
        Assert.True(FaultSpec.IsNetworkText("isolate:leader@1s"));
        Assert.False(FaultSpec.IsNetworkText("kill:leader@1s"));
        Assert.False(FaultSpec.IsNetworkText("not a fault"));
    }

    [Fact]
    public void Parse_ExecWithColonsInItsCommand_KeepsTheWholeCommand()
    {
        var fault = FaultSpec.Parse("exec@2s:curl -s http://host:8080/fail");

        Assert.Equal("curl -s http://host:8080/fail", fault.Command);
        Assert.Equal(FaultSpec.DefaultExecLimit, fault.ExecLimit);
    }

    [Theory]
    [InlineData("kill:leader@10s+5s", "is not undone during the run")]
    [InlineData("kill:leader@-1s", "is not a time")]
    [InlineData("restart:leader@1s+0s", "has a length that is not positive")]
    [InlineData("move-leader:node:1@1s", "names a node, and move-leader acts on the run's partition")]
    [InlineData("kill@1s", "names no node")]
    [InlineData("kill:leader@10", "is not a time such as 10s")]
    [InlineData("kill:leader-from-clients@1s", "which only partition does")]
    [InlineData("slow:leader@1s+2s", "says not how slow")]
    [InlineData("slow:leader@1s:rtt=0ms", "which is not a positive time")]
    [InlineData("cut:leader@1s", "unknown kind 'cut' (kill, restart, pause, stop, move-leader, exec, partition, isolate, slow)")]
    public void Parse_NotAFault_OneLineThatSaysWhatIsWrongAndShowsTheSpellings(string text, string expected)
    {
        var ex = Assert.Throws<FormatException>(() => FaultSpec.Parse(text));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        Assert.Contains("kill:leader@10s", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', ex.Message);
    }

    [Fact]
    public void PlanDocument_PlanWithFaultsAndAGoal_RoundTripsThem()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).PayloadSizes(100).Rates(100)
            .Duration(TimeSpan.FromSeconds(10)).Faults(["Kill:Leader@2s", "exec@3s:echo hi"], "p99<20ms").Build();

        var read = PlanDocument.Parse(PlanDocument.ToJson(plan), "test");

        Assert.Equal(["kill:leader@2s", "exec@3s:echo hi"], read.Faults);
        Assert.Equal("p99<20ms", read.RecoveryGoal);
    }

    [Fact]
    public void RecoveredAfter_SpikeThenCalm_CountsFromTheFaultToTheFirstIntervalThatStaysCalm()
    {
        // Baseline p99 10 ms; the fault at 3.5 s; intervals of 1 s: 4-5 s spikes, 5-6 s calm, 6-7 s spikes again, then calm.
        double[] p99 = [10_000, 10_000, 10_000, 900_000, 500_000, 15_000, 40_000, 12_000, 11_000];
        var intervals = p99.Select((p, i) => Interval(i, p)).ToList();

        var recovered = FaultRecovery.RecoveredAfter(intervals, fired: 3.5, latency => latency.P99Micros <= 20_000);

        Assert.Equal(7 - 3.5, recovered);
        Assert.Null(FaultRecovery.RecoveredAfter(intervals, fired: 3.5, latency => latency.P99Micros <= 5_000));
        // No visible impact: recovered at once.
        Assert.Equal(0, FaultRecovery.RecoveredAfter(intervals, fired: 3.5, latency => true));
    }

    [Fact]
    public void FaultWatch_AcknowledgementsAroundAFault_FirstOfARecordDueAfterItAndFirstOfAnyAfterAnElection()
    {
        var clock = new ManualClock();
        // 1 000 records a second: key k is due at k ms.
        var watch = new FaultWatch(10_000, partitions: 1, TimeSpan.FromSeconds(20), clock, rate: 1_000);
        watch.OnStarted(origin: 0, measuredStart: 0);
        // Before the fault at 2 s: keys up to 1 990 acknowledged by 2.000 s; a late report of key 1 995 at 2.010 s.
        clock.Now = 2_000_000_000;
        watch.OnAcknowledged(1_990, clock.Now);
        clock.Now = 2_010_000_000;
        watch.OnAcknowledged(1_995, clock.Now);
        // After the election at 5 s: key 1 999 at 5.100 s, key 2 500 (due after the fault) at 5.300 s.
        clock.Now = 5_100_000_000;
        watch.OnAcknowledged(1_999, clock.Now);
        clock.Now = 5_300_000_000;
        watch.OnAcknowledged(2_500, clock.Now);

        Assert.Equal(5.3, watch.FirstAcknowledgementAfter(2.0)!.Value, 3);
        Assert.Equal(5.1, watch.FirstAcknowledgementAfter(5.0, anyRecord: true)!.Value, 3);
        Assert.Null(watch.FirstAcknowledgementAfter(6.0));
    }

    private static IntervalRecord Interval(int index, double p99) => new()
    {
        Index = index, StartSeconds = index, LengthSeconds = 1, Warmup = false, Sent = 1, Acknowledged = 1, Consumed = 0,
        MegabytesPerSecond = 0, InFlight = 0, ResponseTime = new IntervalLatency(1, p99 / 2, p99, p99, p99),
    };

    private sealed class ManualClock : IClock
    {
        public long Now { get; set; }

        public long Frequency => 1_000_000_000;

        public long GetTimestamp() => Now;
    }
}
