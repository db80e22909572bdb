namespace KafkaPerf.Measurement;

/// <summary>
/// One fault of one run, and how the run's client went through it: when it fired and what it did, when the cluster had a
/// new leader (asked of the cluster itself), and the client's recovery. Times are seconds from when the run's first record
/// was due, as the intervals' <see cref="IntervalRecord.StartSeconds"/>; durations are seconds.
/// </summary>
public sealed record FaultRecord
{
    /// <summary>The fault, as <c>--fault</c> spells it.</summary>
    public required string Fault { get; init; }

    /// <summary>What happened when it fired, in words.</summary>
    public string? Did { get; init; }

    /// <summary>The node it acted on (none for an exec).</summary>
    public int? Node { get; init; }

    /// <summary>Why it did not fire, or failed; <see langword="null"/> when it did.</summary>
    public string? Error { get; init; }

    /// <summary>When it fired.</summary>
    public double? FiredAtSeconds { get; init; }

    /// <summary>When the node was back (restart: ready again; pause: SIGCONT).</summary>
    public double? BackAtSeconds { get; init; }

    /// <summary>The leader of the run's partition just before the fault.</summary>
    public int? LeaderBefore { get; init; }

    /// <summary>The node the cluster elected next; <see langword="null"/> when no other leader was seen.</summary>
    public int? NewLeader { get; init; }

    /// <summary>From the fault to when the cluster first named <see cref="NewLeader"/> (polled every 50 ms).</summary>
    public double? ElectionSeconds { get; init; }

    /// <summary>The partition's in-sync replicas just before the fault, e.g. <c>1,2,3</c>.</summary>
    public string? InSyncBefore { get; init; }

    /// <summary>The in-sync replicas as the cluster first named them after the fault.</summary>
    public string? InSyncAfter { get; init; }

    /// <summary>From the fault to when the cluster first named other in-sync replicas: a follower's loss shrinks them
    /// without an election, and a producer with <c>acks=all</c> waits until then.</summary>
    public double? InSyncChangeSeconds { get; init; }

    /// <summary>From the fault to the client's first acknowledgement of a record due after it (1 ms resolution).</summary>
    public double? FirstAckAfterFaultSeconds { get; init; }

    /// <summary>From the new leader's election (as first seen) to the client's first acknowledgement after it, of any
    /// record: the client's own part.</summary>
    public double? FirstAckAfterElectionSeconds { get; init; }

    /// <summary>From the fault to the first arrival of a record due after it (roundtrip runs).</summary>
    public double? FirstArrivalAfterFaultSeconds { get; init; }

    /// <summary>The response p99 before the fault: the median of the measured intervals' p99 before it, in microseconds.</summary>
    public double? BaselineP99Micros { get; init; }

    /// <summary>From the fault to the start of the first interval from which every interval's response p99 stays within 2×
    /// <see cref="BaselineP99Micros"/>; <see langword="null"/> when it never did before the run ended.</summary>
    public double? RecoverySeconds { get; init; }

    /// <summary>The same, for the run's latency goal (<c>--slo</c>) when one was given.</summary>
    public double? RecoveryUnderGoalSeconds { get; init; }

    /// <summary>The largest response time from the fault to the run's end, in microseconds.</summary>
    public double? PeakResponseMicros { get; init; }

    /// <summary>Records whose due time fell between the fault and the first acknowledgement after it.</summary>
    public long SentInWindow { get; init; }

    /// <summary>Records the client reported as failed, by error (the run's whole count; faults of one run share it).</summary>
    public IReadOnlyDictionary<string, long>? FailedByError { get; init; }

    /// <summary>Records acknowledged and proven lost: the topic, read from the start after the run, was read past the
    /// offset at which each was acknowledged without it. <see langword="null"/> when the read-back could not prove it
    /// (<see cref="NotVerifiedReason"/> says why).</summary>
    public long? Lost { get; init; }

    /// <summary>Records read back more than once.</summary>
    public long? Duplicated { get; init; }

    /// <summary>Acknowledged records the read-back did not see and could not prove lost: its read of some partition stopped
    /// short of their offsets. <see langword="null"/> when every record was accounted for.</summary>
    public long? NotVerified { get; init; }

    /// <summary>Why the read-back could not account for every record, with where it stopped; <see langword="null"/> when
    /// it could.</summary>
    public string? NotVerifiedReason { get; init; }

    /// <summary>How long reading the topic back after the run took, from the read-back consumer's creation to its end.</summary>
    public double? ReadBackSeconds { get; init; }

    /// <summary>Whether the read-back accounted for every acknowledged record (seen, or proven lost).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool Verified => NotVerifiedReason is null && Lost is not null;

    /// <summary>The producer's <c>acks</c> and idempotence as the client ran them, beside what was lost.</summary>
    public string? Durability { get; init; }

    /// <summary>How long healing the cluster after the run took (the next run started on a healed cluster).</summary>
    public double? HealSeconds { get; init; }

    /// <summary>An exec's exit code.</summary>
    public int? ExitCode { get; init; }

    /// <summary>An exec's last lines of output.</summary>
    public string? Output { get; init; }
}
