using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>The runs' membership events (<c>--fault join:consumer@10s</c> and the like): per client, variant and event the
/// medians over the measured runs, and every member's figures of every run - for the reports and, exactly, for the CSV file
/// (<c>-rebalances.csv</c>).</summary>
public static class RebalanceTables
{
    /// <summary>The columns of <see cref="Rows"/>: one row per run, event and member.</summary>
    public static IReadOnlyList<ReportColumn> Columns { get; } =
    [
        Right("sequence"), Left("client"), Left("scenario"), Right("payloadBytes"), Left("variant"), Right("offeredRate"), Right("repetition"),
        Left("succeeded"), Left("event"), Left("did"), Right("firedAtSeconds"), Right("actionSeconds"), Right("stableAfterSeconds"),
        Right("coordinatorStableAfterSeconds"), Left("coordinatorError"),
        Right("assignmentRounds"), Right("membersWithSeveralRounds"), Right("longestKeptGapSeconds"), Right("longestGainedGapSeconds"),
        Right("redelivered"), Right("peakResponseMicros"), Right("peakLag"), Right("member"), Left("live"), Right("kept"), Right("keptRevoked"), Right("gained"),
        Right("gave"), Right("memberAssignmentRounds"), Right("keptGapSeconds"), Right("gainedGapSeconds"), Left("error"),
    ];

    /// <summary>One row per measured run, event and member (an event no member saw has one row), numbers in full precision.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The table.</returns>
    public static ReportTable Rows(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var rows = new List<IReadOnlyList<string>>();
        foreach (var run in result.Runs.Where(r => r.Rebalances is not null))
        {
            foreach (var e in run.Rebalances!)
            {
                IReadOnlyList<string> head =
                [
                    ExactCells.Number(run.Sequence), run.Client, FaultTables.Name(run.Scenario), ExactCells.Number(run.PayloadBytes), run.Variant,
                    ExactCells.Number(run.OfferedRate), ExactCells.Number(run.Repetition), ExactCells.Flag(run.Succeeded), e.Event, e.Did ?? string.Empty,
                    ExactCells.Number(e.FiredAtSeconds), ExactCells.Number(e.ActionSeconds), ExactCells.Number(e.StableAfterSeconds),
                    ExactCells.Number(e.CoordinatorStableAfterSeconds), e.CoordinatorError ?? string.Empty,
                    ExactCells.Number(e.AssignmentRounds), ExactCells.Number(e.MembersWithSeveralRounds), ExactCells.Number(e.LongestKeptGapSeconds),
                    ExactCells.Number(e.LongestGainedGapSeconds), ExactCells.Number(e.Redelivered), ExactCells.Number(e.PeakResponseMicros),
                    ExactCells.Number(e.PeakLag),
                ];
                var members = e.Members.Count == 0 ? [null] : e.Members.Cast<RebalanceMember?>();
                foreach (var m in members)
                {
                    rows.Add(
                    [
                        .. head, ExactCells.Number(m?.Member), m is null ? string.Empty : ExactCells.Flag(m.Live), ExactCells.Number(m?.Kept),
                        ExactCells.Number(m?.KeptRevoked), ExactCells.Number(m?.Gained), ExactCells.Number(m?.Gave), ExactCells.Number(m?.AssignmentRounds), ExactCells.Number(m?.KeptGapSeconds),
                        ExactCells.Number(m?.GainedGapSeconds), e.Error ?? string.Empty,
                    ]);
                }
            }
        }
        return new ReportTable(Columns, rows);
    }

    /// <summary>The report's section on membership events; none when no run had one.</summary>
    internal static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Rebalances is { Count: > 0 }).ToList();
        if (runs.Count == 0) yield break;
        var summary = new List<IReadOnlyList<string>>();
        foreach (var group in runs.SelectMany(r => r.Rebalances!.Select(e => (Run: r, Event: e)))
                     .GroupBy(x => (x.Run.Scenario, x.Run.Variant, x.Run.PayloadBytes, x.Run.OfferedRate, x.Event.Event, x.Run.Client)))
        {
            var events = group.Select(x => x.Event).ToList();
            var (scenario, variant, payload, rate, text, client) = group.Key;
            int unstable = events.Count(e => e.StableAfterSeconds is null);
            int unsettled = events.Count(e => e.CoordinatorStableAfterSeconds is null);
            summary.Add(
            [
                FaultTables.Name(scenario), variant, Count(payload), Value(rate, "0"), text, client, Count(events.Count),
                unstable * 2 >= events.Count ? "not by the end" : FaultTables.Seconds(FaultTables.Median(events.Select(e => e.StableAfterSeconds))) + (unstable > 0 ? $" ({unstable} not)" : string.Empty),
                events.All(e => e.CoordinatorStableAfterSeconds is null && e.CoordinatorError is null) ? "–"
                    : unsettled * 2 >= events.Count ? "not by the end"
                    : FaultTables.Seconds(FaultTables.Median(events.Select(e => e.CoordinatorStableAfterSeconds))) + (unsettled > 0 ? $" ({unsettled} not)" : string.Empty),
                FaultTables.Seconds(FaultTables.Median(events.Select(e => e.LongestKeptGapSeconds))),
                FaultTables.Seconds(FaultTables.Median(events.Select(e => e.LongestGainedGapSeconds))),
                Value(FaultTables.Median(events.Select(e => (double?)e.AssignmentRounds)), "0.#"),
                Count(events.Sum(e => e.Redelivered)), FaultTables.Millis(FaultTables.Median(events.Select(e => e.PeakResponseMicros))),
                Count((long?)FaultTables.Median(events.Select(e => (double?)e.PeakLag))),
            ]);
        }
        var perRun = runs.SelectMany(r => r.Rebalances!.Select(e => (IReadOnlyList<string>)
        [
            Count(r.Sequence), r.Client, e.Event, e.Did ?? e.Error ?? "–", FaultTables.Seconds(e.FiredAtSeconds), e.StableAfterSeconds is { } s ? FaultTables.Seconds(s) : "not by the end",
            e.CoordinatorStableAfterSeconds is { } c ? FaultTables.Seconds(c) : e.CoordinatorError ?? "–",
            string.Join("; ", e.Members.Select(Member)), Count(e.Redelivered), FaultTables.Millis(e.PeakResponseMicros),
        ])).ToList();
        yield return new ReportSection("Rebalances",
        [
            new ReportParagraph("Each membership event fired in every measured run at the same moment, counted from the start of the run's measured part; "
                + "times below are from the event, each event's window lasting to the next event or the run's end. Stable = until the group was last "
                + "stable in the window - every partition owned by exactly one live member, every live member assigned since it (re)started - as the "
                + "members' own rebalance callbacks tell it; 0 when the event never unsettled it. Coordinator = the same as the group's coordinator "
                + "tells it (the Admin API's DescribeConsumerGroups, asked every 0.1 s): Stable, exactly the live members, every partition assigned "
                + "to one of them and, under the consumer protocol, each member's assignment its target - a crashed member stays listed until its "
                + "session ends. Kept gap = the longest time without a record on a "
                + "partition a member owned before the event and owns again after it (in brackets how many of those an eager assignor revoked and gave back meanwhile); moved gap = on a partition that changed hands (the pause the event "
                + "costs its readers). Rounds = the most assignment callbacks one member had (an incremental rebalance that moves partitions takes two). "
                + "Redelivered = records read again, from the last committed offset: the at-least-once cost (the run does not fail for them). Peak = "
                + "the largest response time and lag in the window's intervals. Medians over the runs; redelivered is a total."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("event"), Left("client"), Right("runs"),
                Right("stable s"), Right("coordinator s"), Right("kept gap s"), Right("moved gap s"), Right("rounds"), Right("redelivered"), Right("peak ms"), Right("peak lag"),
            ], summary),
            new ReportTable(
            [
                Right("run"), Left("client"), Left("event"), Left("what happened"), Right("fired at s"), Right("stable s"), Right("coordinator s"), Left("members (kept (revoked)/gained/gave, gaps s, rounds)"),
                Right("redelivered"), Right("peak ms"),
            ], perRun),
        ]);
    }

    /// <summary>One event of a run in one line, for progress.</summary>
    /// <param name="e">The event.</param>
    /// <returns>The line.</returns>
    public static string Describe(RebalanceRecord e)
    {
        ArgumentNullException.ThrowIfNull(e);
        if (e.FiredAtSeconds is null) return $"{e.Event}: did not fire ({e.Error ?? "no reason given"})";
        var parts = new List<string> { $"{e.Event}: {e.Did ?? e.Error} at {FaultTables.Seconds(e.FiredAtSeconds)} s" };
        if (e.Error is not null && e.Did is not null) parts.Add(e.Error);
        parts.Add(e.StableAfterSeconds is { } stable ? $"stable after {FaultTables.Seconds(stable)} s" : "not stable by the end");
        if (e.CoordinatorStableAfterSeconds is { } settled) parts.Add($"the coordinator's after {FaultTables.Seconds(settled)} s");
        else if (e.CoordinatorError is not null) parts.Add($"the coordinator's: {e.CoordinatorError}");
        parts.Add($"longest gap {FaultTables.Seconds(e.LongestKeptGapSeconds)} s on kept partitions, {FaultTables.Seconds(e.LongestGainedGapSeconds)} s on moved ones");
        parts.Add($"{e.AssignmentRounds} assignment round(s){(e.MembersWithSeveralRounds > 0 ? $" ({e.MembersWithSeveralRounds} member(s) more than one)" : string.Empty)}");
        parts.Add($"redelivered {Count(e.Redelivered)}, peak {FaultTables.Millis(e.PeakResponseMicros)} ms, lag {Count(e.PeakLag)}");
        return string.Join("; ", parts);
    }

    private static string Member(RebalanceMember m) =>
        $"{m.Member}{(m.Live ? string.Empty : " (gone)")}: {m.Kept}{(m.KeptRevoked > 0 ? $" ({m.KeptRevoked})" : string.Empty)}/{m.Gained}/{m.Gave}, {FaultTables.Seconds(m.KeptGapSeconds)}/{FaultTables.Seconds(m.GainedGapSeconds)}, {m.AssignmentRounds}";
}
