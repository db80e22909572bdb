using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running.Faults;

/// <summary>A run's recovery from each of its faults, from what the run measured (its intervals) and what its
/// <see cref="FaultWatch"/> recorded.</summary>
internal static class FaultRecovery
{
    /// <summary>How far above its pre-fault value an interval's response p99 may be and count as recovered.</summary>
    internal const double RecoveredFactor = 2;

    /// <summary>The run's fault records.</summary>
    /// <param name="outcomes">What each fault did.</param>
    /// <param name="record">The run as measured.</param>
    /// <param name="watch">Its acknowledgements, arrivals and failures.</param>
    /// <param name="goal">The latency goal recovery is also measured against; <see langword="null"/> for none.</param>
    /// <param name="readBack">What reading the topic back proved about the acknowledged records, and how many were read
    /// more than once; <see langword="null"/> when nothing was acknowledged (nothing to read back).</param>
    /// <returns>One record per fault.</returns>
    internal static IReadOnlyList<FaultRecord> Records(IReadOnlyList<FaultOutcome> outcomes, RunRecord record, FaultWatch watch, LatencyGoal? goal,
        (ReadOutcome Read, long Duplicated, double? Seconds)? readBack) =>
        [.. outcomes.Select(o => Record(o, record, watch, goal, readBack))];

    private static FaultRecord Record(FaultOutcome outcome, RunRecord record, FaultWatch watch, LatencyGoal? goal, (ReadOutcome Read, long Duplicated, double? Seconds)? readBack)
    {
        var result = new FaultRecord
        {
            Fault = outcome.Fault.ToString(),
            Did = outcome.Action?.Did,
            Node = outcome.Action?.Node,
            Error = outcome.Error,
            LeaderBefore = outcome.Before?.Leader,
            InSyncBefore = outcome.Before?.InSyncText,
            InSyncAfter = outcome.InSyncAfter,
            NewLeader = outcome.NewLeader,
            ExitCode = outcome.Action?.ExitCode,
            Output = outcome.Action?.Output,
            FailedByError = watch.Failures.Count > 0 ? new SortedDictionary<string, long>(watch.Failures.ToDictionary(p => p.Key, p => p.Value), StringComparer.Ordinal) : null,
            Lost = readBack is { Read.Verified: true } proven ? proven.Read.Lost : null,
            Duplicated = readBack?.Duplicated,
            NotVerified = readBack is { Read.Verified: false } open ? open.Read.NotVerified : null,
            NotVerifiedReason = readBack?.Read.Reason,
            ReadBackSeconds = readBack?.Seconds,
            Durability = Durability(record.ProducerConfig),
        };
        if (outcome.FiredAt == 0) return result;
        double fired = watch.SecondsOf(outcome.FiredAt);
        double? elected = outcome.ElectedAt == 0 ? null : watch.SecondsOf(outcome.ElectedAt);
        double? firstAck = watch.FirstAcknowledgementAfter(fired);
        double? firstArrival = record.Scenario == ScenarioKind.Roundtrip ? watch.FirstArrivalAfter(fired) : null;
        var intervals = record.Intervals ?? [];
        var before = Statistics.Summary.Of(intervals.Where(i => !i.Warmup && i.ResponseTime is not null && i.StartSeconds + i.LengthSeconds <= fired)
            .Select(i => i.ResponseTime!.P99Micros));
        double? baseline = before.Count > 0 ? before.Median : null;
        return result with
        {
            FiredAtSeconds = fired,
            BackAtSeconds = outcome.BackAt == 0 ? null : watch.SecondsOf(outcome.BackAt),
            ElectionSeconds = elected - fired,
            InSyncChangeSeconds = outcome.InSyncChangedAt == 0 ? null : watch.SecondsOf(outcome.InSyncChangedAt) - fired,
            FirstAckAfterFaultSeconds = firstAck - fired,
            FirstAckAfterElectionSeconds = elected is { } e && watch.FirstAcknowledgementAfter(e, anyRecord: true) is { } after ? after - e : null,
            FirstArrivalAfterFaultSeconds = firstArrival - fired,
            BaselineP99Micros = baseline,
            RecoverySeconds = baseline is { } b ? RecoveredAfter(intervals, fired, p => p.P99Micros <= RecoveredFactor * b) : null,
            RecoveryUnderGoalSeconds = goal is null ? null : RecoveredAfter(intervals, fired, p => Percentile(p, goal.Percentile) <= goal.Limit.TotalMicroseconds),
            PeakResponseMicros = intervals.Where(i => i.ResponseTime is not null && i.StartSeconds + i.LengthSeconds > fired)
                .Select(i => (double?)i.ResponseTime!.MaxMicros).Max(),
            SentInWindow = firstAck is { } ack && record.OfferedRate is { } rate ? (long)Math.Round((ack - fired) * rate) : 0,
        };
    }

    /// <summary>From the fault to the start of the first interval (the fault's own at the earliest) from which every
    /// interval with timed records meets <paramref name="recovered"/>; <see langword="null"/> when the last one does not.</summary>
    internal static double? RecoveredAfter(IReadOnlyList<IntervalRecord> intervals, double fired, Func<IntervalLatency, bool> recovered)
    {
        double? since = null;
        foreach (var interval in intervals)
        {
            if (interval.StartSeconds + interval.LengthSeconds <= fired || interval.ResponseTime is not { } latency) continue;
            if (!recovered(latency)) since = null;
            else since ??= Math.Max(0, interval.StartSeconds - fired);
        }
        return since;
    }

    private static double Percentile(IntervalLatency latency, double percentile) => FaultChecks.IntervalPercentile(percentile) switch
    {
        50 => latency.P50Micros,
        99 => latency.P99Micros,
        999 => latency.P999Micros,
        _ => latency.MaxMicros,
    };

    /// <summary>"acks=all, idempotence on", from the producer's effective configuration (either client's keys).</summary>
    private static string? Durability(IReadOnlyDictionary<string, string>? config)
    {
        if (config is null) return null;
        string? acks = config.TryGetValue("acks", out var a) ? a : config.TryGetValue("request.required.acks", out var r) ? r : null;
        if (acks == "-1") acks = "all";
        string? idempotence = config.TryGetValue("enable.idempotence", out var i) ? (i == "true" ? "on" : "off") : null;
        return acks is null && idempotence is null ? null
            : string.Join(", ", new[] { acks is null ? null : $"acks={acks}", idempotence is null ? null : $"idempotence {idempotence}" }.Where(s => s is not null));
    }
}
