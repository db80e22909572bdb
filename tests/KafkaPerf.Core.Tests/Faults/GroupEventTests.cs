using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Core.Tests.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;
using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Faults;

/// <summary>Membership events and group settings: their spellings, the plan's sweeps and refusals, and the figures the
/// group's log gives.</summary>
public sealed class GroupEventTests
{
    [Theory]
    [InlineData("join:consumer@10s", GroupEventKind.Join, 10.0, null)]
    [InlineData("leave:consumer@1.5s", GroupEventKind.Leave, 1.5, null)]
    [InlineData("CRASH:Consumer@500ms", GroupEventKind.Crash, 0.5, null)]
    [InlineData("restart:consumer@10s+2s", GroupEventKind.Restart, 10.0, 2.0)]
    [InlineData("roll:consumers@1m", GroupEventKind.Roll, 60.0, null)]
    [InlineData("busy:consumer@10s+3s", GroupEventKind.Busy, 10.0, 3.0)]
    public void Parse_EverySpelling_ReadsItAndWritesItBack(string text, GroupEventKind kind, double at, double? away)
    {
        var e = GroupEventSpec.Parse(text);

        Assert.Equal(kind, e.Kind);
        Assert.Equal(TimeSpan.FromSeconds(at), e.At);
        Assert.Equal(away is { } a ? TimeSpan.FromSeconds(a) : null, e.For);
        Assert.Equal(e, GroupEventSpec.Parse(e.ToString()));
        Assert.True(GroupEventSpec.IsGroupEventText(text));
    }

    [Theory]
    [InlineData("join:consumer", "has no time")]
    [InlineData("join:leader@10s", "acts on 'leader'")]
    [InlineData("roll:consumer@10s", "acts on 'consumer'")]
    [InlineData("leave:consumer@10s+2s", "only restart, roll and busy take")]
    [InlineData("busy:consumer@10s", "has no length")]
    [InlineData("busy:consumer@10s+0s", "has no length")]
    [InlineData("crash:consumer@soon", "not a time")]
    public void Parse_AMisspelling_SaysWhatIsWrongInOneLine(string text, string problem)
    {
        var ex = Assert.Throws<FormatException>(() => GroupEventSpec.Parse(text));

        Assert.Contains(problem, ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', ex.Message);
    }

    [Fact]
    public void IsGroupEventText_ANodeFault_IsNot()
    {
        Assert.False(GroupEventSpec.IsGroupEventText("restart:leader@10s+5s"));
        Assert.False(GroupEventSpec.IsGroupEventText("kill:node:2@1s"));
    }

    [Fact]
    public void Builder_BothProtocolsAndTwoAssignors_ThreeVariantsTheConsumerProtocolWithoutAnAssignor()
    {
        var plan = Roundtrip().GroupProtocol(GroupProtocol.Classic, GroupProtocol.Consumer)
            .Assignor(GroupAssignor.Range, GroupAssignor.CooperativeSticky).Build();

        Assert.Equal(
            ["partitions=6 consumers=2 group.protocol=classic assignor=range", "partitions=6 consumers=2 group.protocol=classic assignor=cooperative-sticky",
                "partitions=6 consumers=2 group.protocol=consumer"],
            plan.SettingsVariants.Select(v => v.Describe()));
        // A plan document holds what the builder made of it.
        Assert.Equal(plan.SettingsVariants, PlanDocument.Parse(PlanDocument.ToJson(plan), "test").SettingsVariants);
    }

    [Fact]
    public void Builder_MembershipEvents_KeptApartFromNodeFaultsAndCanonical()
    {
        var plan = Roundtrip().Faults(["JOIN:consumer@2s", "crash:consumer@4000ms"]).Build();

        Assert.Empty(plan.Faults);
        Assert.Equal(["join:consumer@2s", "crash:consumer@4s"], plan.GroupEvents);
        Assert.Equal(plan.GroupEvents, PlanDocument.Parse(PlanDocument.ToJson(plan), "test").GroupEvents);
    }

    [Theory]
    [InlineData("assignor-only-consumer", "--assignor is a classic group's: the consumer protocol (KIP-848) assigns partitions on the broker")]
    [InlineData("session-timeout", "-X java:session.timeout.ms is refused by the consumer group protocol (KIP-848)")]
    [InlineData("share", "are a consumer group's, not a share group's")]
    [InlineData("produce", "A membership event needs consumers reading while records flow at a fixed rate")]
    [InlineData("one-consumer", "A leave or a crash needs another member to take over the partitions: give --consumers 2 or more.")]
    [InlineData("too-late", "fires 30 s into the measured part, which lasts 8 s")]
    [InlineData("misspelt", "has an unknown membership event 'jion'")]
    [InlineData("with-node-fault", "Membership events and node faults in one plan are not built yet")]
    public void Builder_WhatAProtocolOrAnEventCannotDo_IsRefusedInOneLine(string what, string refusal)
    {
        var builder = what switch
        {
            "assignor-only-consumer" => Roundtrip().GroupProtocol(GroupProtocol.Consumer).Assignor(GroupAssignor.Range),
            "session-timeout" => Roundtrip().GroupProtocol(GroupProtocol.Classic, GroupProtocol.Consumer).Override("java", "session.timeout.ms", "6000"),
            "share" => Roundtrip().Group(ConsumerGroupKind.Share).StaticMembership(true),
            "produce" => Roundtrip().Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip).Faults(["join:consumer@2s"]),
            "one-consumer" => Roundtrip().Consumers(1).Faults(["leave:consumer@2s"]),
            "too-late" => Roundtrip().Faults(["crash:consumer@30s"]),
            "misspelt" => Roundtrip().Faults(["jion:consumer@2s"]),
            _ => Roundtrip().Partitions(1).Consumers(1).Faults(["join:consumer@2s", "kill:leader@3s"]),
        };

        var errors = builder.Validate().Where(e => e.Severity == ValidationSeverity.Error).Select(e => e.Message).ToList();

        Assert.Contains(errors, e => e.Contains(refusal, StringComparison.Ordinal));
        Assert.All(errors, e => Assert.DoesNotContain('\n', e));
    }

    [Fact]
    public void GroupWatch_ALeaveUnderAnEagerAssignor_StableWhenTheLastPartitionIsOwnedAgain()
    {
        var clock = new SteppingClock();
        var watch = new GroupWatch(clock, partitions: 4, windows: 1);
        watch.Log(1, GroupWatch.EntryKind.Started);
        watch.Log(2, GroupWatch.EntryKind.Started);
        watch.Log(1, GroupWatch.EntryKind.Assigned, [0, 1]);
        watch.Log(2, GroupWatch.EntryKind.Assigned, [2, 3]);
        Arrivals(watch, clock, [0, 1, 2, 3]);
        long origin = 0;

        watch.BeginWindow(0);
        long fired = clock.GetTimestamp();
        watch.Log(1, GroupWatch.EntryKind.Revoked, [0, 1]);
        watch.Log(1, GroupWatch.EntryKind.Left);
        Arrivals(watch, clock, [2, 3]);
        clock.Advance(Ms(400));
        watch.Log(2, GroupWatch.EntryKind.Revoked, [2, 3]);
        clock.Advance(Ms(100));
        watch.Log(2, GroupWatch.EntryKind.Assigned, [0, 1, 2, 3]);
        long stable = clock.GetTimestamp();
        Arrivals(watch, clock, [0, 1, 2, 3]);
        watch.OnRedelivered();

        var e = Assert.Single(watch.Records([("leave:consumer@1s", "left", null, fired + Ms(10))], clock.GetTimestamp() + Ms(10), origin, null));

        Assert.Equal((double)(stable - fired) / clock.Frequency, e.StableAfterSeconds!.Value, 6);
        Assert.Equal(1, e.AssignmentRounds);
        Assert.Equal(1, e.Redelivered);
        var gone = e.Members.Single(m => m.Member == 1);
        var stayed = e.Members.Single(m => m.Member == 2);
        Assert.False(gone.Live);
        Assert.Equal(2, gone.Gave);
        Assert.True(stayed.Live);
        Assert.Equal((2, 2, 2, 0), (stayed.Kept, stayed.KeptRevoked, stayed.Gained, stayed.Gave));
        // Partitions 0 and 1 went unread from their last record before the event until member 2 had them; 2 and 3 through
        // member 2's own eager revocation.
        Assert.True(stayed.GainedGapSeconds > 0.5, $"{stayed.GainedGapSeconds}");
        Assert.True(stayed.KeptGapSeconds is > 0.49 and < 0.52, $"{stayed.KeptGapSeconds}");
    }

    [Fact]
    public void GroupWatch_AGapStillOpenWhenTheNextEventFires_CountsInBothWindows()
    {
        // busy:consumer@…+3s, then join:consumer@… 500 ms later: member 1 reads nothing from the first event until 2 s
        // after the second.
        var clock = new SteppingClock();
        var watch = new GroupWatch(clock, partitions: 2, windows: 2);
        watch.Log(1, GroupWatch.EntryKind.Started);
        watch.Log(2, GroupWatch.EntryKind.Started);
        watch.Log(1, GroupWatch.EntryKind.Assigned, [0]);
        watch.Log(2, GroupWatch.EntryKind.Assigned, [1]);
        Arrivals(watch, clock, [0, 1]);

        long busy = watch.BeginWindow(0);
        clock.Advance(Ms(500));
        long join = watch.BeginWindow(1);
        clock.Advance(Ms(2000));
        Arrivals(watch, clock, [0, 1]);

        var records = watch.Records([("busy:consumer@1s+3s", "busy", null, busy), ("join:consumer@1.5s", "joined", null, join)],
            clock.GetTimestamp(), 0, null);

        Assert.Equal(0.5, records[0].Members.Single(m => m.Member == 1).KeptGapSeconds!.Value, 2);
        Assert.Equal(2.5, records[1].Members.Single(m => m.Member == 1).KeptGapSeconds!.Value, 2);
    }

    [Fact]
    public void GroupWatch_AJoinerNeverAssigned_NotStableByTheEnd()
    {
        var clock = new SteppingClock();
        var watch = new GroupWatch(clock, partitions: 2, windows: 1);
        watch.Log(1, GroupWatch.EntryKind.Started);
        watch.Log(1, GroupWatch.EntryKind.Assigned, [0, 1]);
        clock.Advance(Ms(10));
        watch.BeginWindow(0);
        watch.Log(2, GroupWatch.EntryKind.Started);
        clock.Advance(Ms(1000));

        var e = Assert.Single(watch.Records([("join:consumer@1s", "joined", null, 0)], clock.GetTimestamp(), 0, null));

        Assert.Null(e.StableAfterSeconds);
        Assert.Null(e.ActionSeconds);
        Assert.Contains("not stable by the end", RebalanceTables.Describe(e), StringComparison.Ordinal);
    }

    [Fact]
    public void GroupWatch_AnEventThatNeverFired_SaysSo()
    {
        var watch = new GroupWatch(new SteppingClock(), partitions: 2, windows: 1);

        var e = Assert.Single(watch.Records([("join:consumer@9s", null, "the run ended before the event's time", 0)], 100, 0, null));

        Assert.Null(e.FiredAtSeconds);
        Assert.Equal("join:consumer@9s: did not fire (the run ended before the event's time)", RebalanceTables.Describe(e));
    }

    [Fact]
    public void RunRecord_DuplicatesARebalanceRedelivered_DoNotFailTheRunOthersDo()
    {
        var rebalances = new[] { new RebalanceRecord { Event = "crash:consumer@1s", FiredAtSeconds = 1, Redelivered = 5 } };
        var run = new RunRecord { ElapsedSeconds = 1, Sent = 10, Delivered = 10, Received = 15, Duplicates = 5, Rebalances = rebalances };

        Assert.True(run.Succeeded);
        Assert.False((run with { Duplicates = 6 }).Succeeded);
        Assert.False((run with { Rebalances = null }).Succeeded);
    }

    [Fact]
    public void Reports_ARunsRebalances_ATimelineBandToTheStableGroupATableAndACsvRowPerMember()
    {
        var failover = KafkaPerf.Core.Tests.Reporting.TimeSeriesSamples.Failover();
        var e = new RebalanceRecord
        {
            Event = "join:consumer@4s", Did = "member 3 subscribed", FiredAtSeconds = 5.0, StableAfterSeconds = 2.5, AssignmentRounds = 2,
            MembersWithSeveralRounds = 1, LongestKeptGapSeconds = 0.04, LongestGainedGapSeconds = 2.4, Redelivered = 7, PeakResponseMicros = 2_400_000,
            Members = [new RebalanceMember { Member = 1, Live = true, Kept = 3, Gained = 0, Gave = 3, AssignmentRounds = 2, KeptGapSeconds = 0.04 },
                new RebalanceMember { Member = 3, Live = true, Kept = 0, Gained = 3, AssignmentRounds = 1, GainedGapSeconds = 2.4 }],
        };
        var result = failover with { Runs = [.. failover.Runs.Select(r => r with { Faults = null, Rebalances = [e] })] };

        var svg = string.Concat(KafkaPerf.Reporting.Charts.ReportCharts.For(result).Select(c => c.Svg));
        using var writer = new StringWriter();
        new KafkaPerf.Reporting.Exporters.MarkdownExporter().Export(result, writer);
        var markdown = writer.ToString();
        var csv = RebalanceTables.Rows(result);

        Assert.Contains("its own rebalance window, from the membership event", svg, StringComparison.Ordinal);
        Assert.DoesNotContain("its own fault window", svg, StringComparison.Ordinal);
        Assert.Contains("join:consumer at 5.0 s (4.0 s into the measured part), group stable at 7.5 s", svg, StringComparison.Ordinal);
        Assert.Contains("## Rebalances", markdown, StringComparison.Ordinal);
        Assert.Contains("| produce | defaults | 1 000 | 1000 | join:consumer@4s | confluent | 1 | 2.500 | – | 0.040 | 2.400 | 2 | 7 | 2400.0 |", markdown, StringComparison.Ordinal);
        Assert.Equal(2 * result.Runs.Count, csv.Rows.Count);
    }

    [Fact]
    public void GroupDescription_IsSettled_OnlyStableWithTheLiveMembersEachPartitionOnceAndEveryTargetReached()
    {
        static GroupMemberDescription M(int[] assigned, int[]? target = null) => new(null, assigned, target);
        var settled = new GroupDescription { State = "Stable", Members = [M([0, 1]), M([2, 3])] };

        Assert.True(settled.IsSettled(partitions: 4, members: 2));
        // A crashed member is listed until its session ends: three listed for two live is not settled.
        Assert.False((settled with { Members = [M([0]), M([1]), M([2, 3])] }).IsSettled(4, 2));
        Assert.False(settled.IsSettled(4, 3));
        Assert.False((settled with { State = "PreparingRebalance" }).IsSettled(4, 2));
        // An incremental rebalance's first round: stable, but partition 1 is nobody's.
        Assert.False((settled with { Members = [M([0]), M([2, 3])] }).IsSettled(4, 2));
        Assert.False((settled with { Members = [M([0, 1]), M([1, 2, 3])] }).IsSettled(4, 2));
        // The consumer protocol: a member short of its target is still reconciling.
        Assert.False((settled with { Members = [M([0, 1], [0]), M([2, 3], [1, 2, 3])] }).IsSettled(4, 2));
        Assert.True((settled with { Members = [M([1, 0], [0, 1]), M([2, 3], [3, 2])] }).IsSettled(4, 2));
        Assert.False(new GroupDescription { Error = "GroupIdNotFound" }.IsSettled(4, 2));
    }

    [Fact]
    public void CoordinatorWatch_SettledAfter_FromTheEventToTheAnswerAfterTheLastUnsettledOne()
    {
        var clock = new SteppingClock();
        using var watch = new CoordinatorWatch(new NoDescriber(), clock, partitions: 2, () => 2, TimeSpan.FromSeconds(1));
        var stable = new GroupDescription { State = "Stable", Members = [new(null, [0], null), new(null, [1], null)] };
        var rebalancing = stable with { State = "PreparingRebalance" };
        watch.Observe(stable, 2, Ms(100));
        watch.Observe(rebalancing, 2, Ms(1_100));
        watch.Observe(stable, 3, Ms(1_200));
        watch.Observe(stable, 2, Ms(1_300));
        watch.Observe(stable, 2, Ms(1_400));
        watch.Observe(rebalancing, 2, Ms(2_500));

        Assert.Equal(Ms(300), watch.SettledAfter(Ms(1_000), Ms(2_000), out var none));
        Assert.Null(none);
        Assert.Equal(0, watch.SettledAfter(Ms(0), Ms(1_000), out _));
        Assert.Null(watch.SettledAfter(Ms(2_000), Ms(3_000), out var why));
        Assert.Equal("not settled by the end: PreparingRebalance, 2 member(s) listed for 2 live, 2 of 2 partitions assigned", why);
        Assert.Null(watch.SettledAfter(Ms(5_000), Ms(6_000), out var silent));
        Assert.Equal("the coordinator did not answer in the window", silent);
    }

    private sealed class NoDescriber : IGroupDescriber
    {
        public GroupDescription Describe(TimeSpan timeout) => throw new InvalidOperationException("not started in these tests");

        public void Dispose()
        {
        }
    }

    [Fact]
    public void Compare_TwoResultsWithMembershipEvents_TheirStableTimesComparedTheirGapsAndRedeliveriesSideBySide()
    {
        var sample = KafkaPerf.Core.Tests.Reporting.ReportSamples.Realistic(repeat: 5, clients: ["confluent"], sizes: [100]);
        int n = 0;
        BenchmarkResult With(Func<int, double?> stable) => sample with
        {
            Runs = [.. sample.Runs.Select(r => r.IsWarmup ? r : r with
            {
                Rebalances = [new RebalanceRecord { Event = "roll:consumers@5s", FiredAtSeconds = 5, StableAfterSeconds = stable(n++), LongestGainedGapSeconds = 3, Redelivered = 2 }],
            })],
        };
        var baseline = With(i => 5.0 + (0.01 * (i % 5)));
        n = 0;
        var candidate = With(i => 0.3 + (0.01 * (i % 5)));
        n = 0;
        var neverUnsettled = With(_ => 0);

        var comparisons = RebalanceEventComparison.Compare(baseline, candidate);
        using var writer = new StringWriter { NewLine = "\n" };
        KafkaPerf.Reporting.Exporters.MarkdownExporter.WriteBlocks(ComparisonTables.RebalanceBlocks(comparisons), writer);

        Assert.NotEmpty(comparisons);
        var c = comparisons[0];
        Assert.Equal("roll:consumers@5s", c.Event);
        Assert.Equal(Verdict.Faster, c.Stable!.Verdict);
        Assert.True(c.Stable.ShiftRatio < 0.1, $"{c.Stable.ShiftRatio}");
        Assert.Equal((3.0, 3.0), (c.LongestGapSeconds.Baseline!.Value, c.LongestGapSeconds.Candidate!.Value));
        Assert.Equal(2 * c.BaselineRuns, c.Redelivered.Baseline);
        Assert.Contains("| roll:consumers@5s |", writer.ToString(), StringComparison.Ordinal);
        Assert.Contains("candidate faster", writer.ToString(), StringComparison.Ordinal);
        // A time of 0 (never unsettled) has no ratio: shown, not judged.
        Assert.All(RebalanceEventComparison.Compare(baseline, neverUnsettled), e => Assert.Null(e.Stable));
        Assert.Empty(RebalanceEventComparison.Compare(sample, sample));
        Assert.Empty(ComparisonTables.RebalanceBlocks([]));
    }

    private static BenchmarkPlanBuilder Roundtrip() =>
        new BenchmarkPlanBuilder().Clients("java").Scenarios(ScenarioKind.Roundtrip).PayloadSizes(100).Rates(1_000)
            .Duration(TimeSpan.FromSeconds(8)).Partitions(6).Consumers(2);

    private static long Ms(int ms) => ms * 1_000_000L;

    private static void Arrivals(GroupWatch watch, SteppingClock clock, int[] partitions)
    {
        foreach (var p in partitions)
        {
            clock.Advance(Ms(1));
            watch.OnArrival(p, clock.GetTimestamp());
        }
    }
}
