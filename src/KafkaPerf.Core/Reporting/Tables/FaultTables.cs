using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>The runs' faults (<c>--fault</c>): per client and fault the medians over the measured runs, and every run's
/// figures - for the reports and, exactly, for the CSV file (<c>-faults.csv</c>).</summary>
public static class FaultTables
{
    /// <summary>The columns of <see cref="Rows"/>.</summary>
    public static IReadOnlyList<ReportColumn> Columns { get; } =
    [
        Right("sequence"), Left("client"), Left("scenario"), Right("payloadBytes"), Left("variant"), Right("offeredRate"), Right("repetition"),
        Left("succeeded"), Left("fault"), Left("did"), Right("node"), Right("firedAtSeconds"), Right("backAtSeconds"), Right("leaderBefore"),
        Right("newLeader"), Right("electionSeconds"), Left("inSyncBefore"), Left("inSyncAfter"), Right("inSyncChangeSeconds"), Right("firstAckAfterFaultSeconds"), Right("firstAckAfterElectionSeconds"),
        Right("firstArrivalAfterFaultSeconds"), Right("baselineP99Micros"), Right("recoverySeconds"), Right("recoveryUnderGoalSeconds"),
        Right("peakResponseMicros"), Right("sentInWindow"), Left("failedByError"), Right("lost"), Right("duplicated"),
        Right("notVerified"), Left("notVerifiedReason"), Right("readBackSeconds"), Left("durability"),
        Right("healSeconds"), Right("exitCode"), Left("error"),
    ];

    /// <summary>One row per measured run and fault, numbers in full precision.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The table.</returns>
    public static ReportTable Rows(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var rows = new List<IReadOnlyList<string>>();
        foreach (var run in result.Runs.Where(r => r.Faults is not null))
        {
            foreach (var f in run.Faults!)
            {
                rows.Add(
                [
                    ExactCells.Number(run.Sequence), run.Client, Name(run.Scenario), ExactCells.Number(run.PayloadBytes), run.Variant,
                    ExactCells.Number(run.OfferedRate), ExactCells.Number(run.Repetition), ExactCells.Flag(run.Succeeded), f.Fault, f.Did ?? string.Empty,
                    ExactCells.Number(f.Node), ExactCells.Number(f.FiredAtSeconds), ExactCells.Number(f.BackAtSeconds), ExactCells.Number(f.LeaderBefore),
                    ExactCells.Number(f.NewLeader), ExactCells.Number(f.ElectionSeconds), f.InSyncBefore ?? string.Empty, f.InSyncAfter ?? string.Empty,
                    ExactCells.Number(f.InSyncChangeSeconds), ExactCells.Number(f.FirstAckAfterFaultSeconds),
                    ExactCells.Number(f.FirstAckAfterElectionSeconds), ExactCells.Number(f.FirstArrivalAfterFaultSeconds), ExactCells.Number(f.BaselineP99Micros),
                    ExactCells.Number(f.RecoverySeconds), ExactCells.Number(f.RecoveryUnderGoalSeconds), ExactCells.Number(f.PeakResponseMicros),
                    ExactCells.Number(f.SentInWindow), Failures(f), ExactCells.Number(f.Lost), ExactCells.Number(f.Duplicated),
                    ExactCells.Number(f.NotVerified), f.NotVerifiedReason ?? string.Empty, ExactCells.Number(f.ReadBackSeconds), f.Durability ?? string.Empty,
                    ExactCells.Number(f.HealSeconds), ExactCells.Number(f.ExitCode), f.Error ?? string.Empty,
                ]);
            }
        }
        return new ReportTable(Columns, rows);
    }

    /// <summary>The report's section on faults; none when no run had one.</summary>
    internal static IEnumerable<ReportSection> Section(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Faults is { Count: > 0 }).ToList();
        if (runs.Count == 0) yield break;
        bool goal = result.Plan.RecoveryGoal is not null;
        var summary = new List<IReadOnlyList<string>>();
        foreach (var group in runs.SelectMany(r => r.Faults!.Select(f => (Run: r, Fault: f)))
                     .GroupBy(x => (x.Run.Scenario, x.Run.Variant, x.Run.PayloadBytes, x.Run.OfferedRate, x.Fault.Fault, x.Run.Client)))
        {
            var items = group.ToList();
            var faults = items.Select(x => x.Fault).ToList();
            var (scenario, variant, payload, rate, fault, client) = group.Key;
            summary.Add(
            [
                Name(scenario), variant, Count(payload), Value(rate, "0"), fault, client, Count(items.Count),
                Seen(faults, f => f.ElectionSeconds), Seen(faults, f => f.InSyncChangeSeconds), Seen(faults, f => f.FirstAckAfterFaultSeconds),
                Seen(faults, f => f.FirstAckAfterElectionSeconds), Recovered(faults, f => f.RecoverySeconds),
                .. goal ? [Recovered(faults, f => f.RecoveryUnderGoalSeconds)] : Array.Empty<string>(),
                Millis(Median(faults.Select(f => f.BaselineP99Micros))), Millis(Median(faults.Select(f => f.PeakResponseMicros))),
                Count(faults.Sum(f => f.FailedByError?.Values.Sum() ?? 0)), LostTotal(faults), Total(faults.Select(f => f.Duplicated)),
                faults.Select(f => f.Durability).FirstOrDefault(d => d is not null) ?? "–", Seconds(Median(faults.Select(f => f.HealSeconds))),
            ]);
        }
        var perRun = runs.SelectMany(r => r.Faults!.Select(f => (IReadOnlyList<string>)
        [
            Count(r.Sequence), r.Client, f.Fault, f.Did ?? f.Error ?? "–", Seconds(f.FiredAtSeconds), f.NewLeader is { } leader ? $"{leader} after {Seconds(f.ElectionSeconds)}" : "none seen",
            Seconds(f.FirstAckAfterFaultSeconds), Seconds(f.FirstAckAfterElectionSeconds), Seconds(f.RecoverySeconds), Millis(f.PeakResponseMicros),
            Failures(f) is { Length: > 0 } failed ? failed : "0", LostText(f), Count(f.Duplicated), Seconds(f.HealSeconds),
        ])).ToList();
        yield return new ReportSection("Failover",
        [
            new ReportParagraph("Each fault fired in every measured run at the same moment, counted from the start of the run's measured part; times "
                + "below are from the fault. Election = until the cluster named another leader of the run's partition (asked every 50 ms): the cluster's "
                + "part; ISR change = until it named other in-sync replicas (a lost follower leaves them without an election, and acks=all waits for it "
                + "until then). First ack = until the client's first acknowledgement of a record due after the fault; after election = from the election to its "
                + "first acknowledgement: the client's own part. Recovered = until every later interval's response p99 stayed within 2× its median before "
                + $"the fault{(goal ? $" (and within the goal {result.Plan.RecoveryGoal})" : string.Empty)}; 'not by the end' when the run ended first. "
                + "Lost = acknowledged and proven lost: the topic, read from its start after the run, was read past the offset at which each was "
                + "acknowledged without it; 'not verified' = the read-back stopped before those offsets (where: in the run's line below and the faults CSV), "
                + "so nothing is known of them and they are not counted lost; dup = read more than once. Heal = until the "
                + "cluster was whole again before the next run. Medians over the runs; failed, lost and dup are totals."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("fault"), Left("client"), Right("runs"),
                Right("election s"), Right("ISR change s"), Right("first ack s"), Right("after election s"), Right("recovered s"), .. goal ? [Right("under goal s")] : Array.Empty<ReportColumn>(),
                Right("p99 before ms"), Right("peak ms"), Right("failed"), Right("lost"), Right("dup"), Left("durability"), Right("heal s"),
            ], summary),
            new ReportTable(
            [
                Right("run"), Left("client"), Left("fault"), Left("what happened"), Right("fired at s"), Left("new leader"), Right("first ack s"),
                Right("after election s"), Right("recovered s"), Right("peak ms"), Left("failed"), Right("lost"), Right("dup"), Right("heal s"),
            ], perRun),
            .. NotVerified(runs),
        ]);
    }

    /// <summary>The read-backs that could not account for every record, each with where it stopped.</summary>
    private static IEnumerable<ReportBlock> NotVerified(IReadOnlyList<RunRecord> runs)
    {
        var open = runs.SelectMany(r => r.Faults!.Where(f => f.NotVerifiedReason is not null).Select(f => $"run {Count(r.Sequence)} ({r.Client}, {f.Fault}): not verified: {f.NotVerifiedReason}"))
            .Distinct(StringComparer.Ordinal).ToList();
        if (open.Count == 0) yield break;
        yield return new ReportParagraph("Read-backs that could not account for every acknowledged record (nothing is known of the records they did not read):");
        yield return new ReportList(open);
    }

    /// <summary>One fault of a run in one line, for progress: what happened and the recovery figures.</summary>
    /// <param name="f">The fault.</param>
    /// <returns>The line.</returns>
    public static string Describe(FaultRecord f)
    {
        ArgumentNullException.ThrowIfNull(f);
        if (f.FiredAtSeconds is null) return $"{f.Fault}: did not fire ({f.Error ?? "no reason given"})";
        var parts = new List<string> { $"{f.Fault}: {f.Did ?? f.Error} at {Seconds(f.FiredAtSeconds)} s" };
        if (f.Error is not null && f.Did is not null) parts.Add(f.Error);
        parts.Add(f.NewLeader is { } leader ? $"new leader {leader} after {Seconds(f.ElectionSeconds)} s" : "no new leader seen");
        if (f.InSyncAfter is not null) parts.Add($"in-sync replicas {f.InSyncBefore} → {f.InSyncAfter} after {Seconds(f.InSyncChangeSeconds)} s");
        parts.Add(f.FirstAckAfterFaultSeconds is { } ack
            ? $"first ack after {Seconds(ack)} s{(f.FirstAckAfterElectionSeconds is { } own ? $" ({Seconds(own)} s after the election)" : string.Empty)}"
            : "no ack after it");
        parts.Add(f.RecoverySeconds is { } recovered ? $"p99 back within 2× after {Seconds(recovered)} s" : "p99 not back within 2× by the end");
        parts.Add($"peak {Millis(f.PeakResponseMicros)} ms");
        parts.Add($"lost {LostText(f)}, dup {Count(f.Duplicated)}{(Failures(f) is { Length: > 0 } failed ? $", failed {failed}" : string.Empty)}");
        if (f.NotVerifiedReason is { } reason) parts.Add($"not verified: {reason}");
        if (f.HealSeconds is { } heal) parts.Add($"healed in {Seconds(heal)} s");
        return string.Join("; ", parts);
    }

    private static string Failures(FaultRecord f) => f.FailedByError is { Count: > 0 } failed
        ? string.Join("; ", failed.Select(p => $"{p.Key}: {p.Value.ToString(CultureInfo.InvariantCulture)}"))
        : string.Empty;

    /// <summary>The median over the runs that saw it, and in how many it was not seen.</summary>
    private static string Seen(List<FaultRecord> faults, Func<FaultRecord, double?> of)
    {
        var values = faults.Select(of).ToList();
        int missing = values.Count(v => v is null);
        if (missing == values.Count) return "none seen";
        return Seconds(Median(values)) + (missing > 0 ? $" ({missing} none)" : string.Empty);
    }

    private static string Recovered(List<FaultRecord> faults, Func<FaultRecord, double?> of)
    {
        var values = faults.Select(of).ToList();
        int missing = values.Count(v => v is null);
        // A run that never recovered counts as the slowest: the median is "not by the end" once half of them did not.
        if (missing * 2 >= values.Count) return "not by the end";
        var sorted = values.Select(v => v ?? double.PositiveInfinity).Order().ToList();
        int middle = sorted.Count / 2;
        // Fewer than half are missing, so the middle values are measured ones.
        double median = sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return Seconds(median) + (missing > 0 ? $" ({missing} not by the end)" : string.Empty);
    }

    internal static double? Median(IEnumerable<double?> values) => Statistics.Summary.MedianOf(values);

    /// <summary>A fault's lost records, or how many are not verified when the read-back could not prove it.</summary>
    private static string LostText(FaultRecord f) => f.Lost is { } lost ? Count(lost) : f.NotVerified is { } open ? $"{Count(open)} not verified" : "–";

    /// <summary>The lost records over the runs, and those not verified when some read-back could not prove it.</summary>
    private static string LostTotal(IReadOnlyList<FaultRecord> faults)
    {
        long open = faults.Sum(f => f.NotVerified ?? 0);
        string lost = Total(faults.Select(f => f.Lost));
        return faults.Any(f => f.NotVerifiedReason is not null) ? $"{(lost == "–" ? "0" : lost)} + {Count(open)} not verified" : lost;
    }

    private static string Total(IEnumerable<long?> values)
    {
        var present = values.OfType<long>().ToList();
        return present.Count == 0 ? "–" : Count(present.Sum());
    }

    internal static string Seconds(double? value) => Value(value, "0.000");

    internal static string Millis(double? micros) => Value(micros / 1000, "0.0");

    internal static string Name(ScenarioKind scenario) => scenario.ToString().ToLowerInvariant();
}
