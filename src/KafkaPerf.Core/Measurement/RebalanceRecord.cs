namespace KafkaPerf.Measurement;

/// <summary>
/// One membership event of one run (<c>--fault join:consumer@10s</c> and the like) and how the group went through it,
/// from the members' own rebalance callbacks: when every partition was owned again, how long partitions went without a
/// record, what was read twice. Times are seconds from when the run's first record was due, as the intervals'
/// <see cref="IntervalRecord.StartSeconds"/>; durations are seconds. The event's window lasts until the next event or the
/// run's end.
/// </summary>
public sealed record RebalanceRecord
{
    /// <summary>The event, as <c>--fault</c> spells it.</summary>
    public required string Event { get; init; }

    /// <summary>What was done, in words.</summary>
    public string? Did { get; init; }

    /// <summary>Why it did not fire or failed; <see langword="null"/> when it did.</summary>
    public string? Error { get; init; }

    /// <summary>When it fired.</summary>
    public double? FiredAtSeconds { get; init; }

    /// <summary>From the event to when its action was over: a leave's close returned, a restarted member was created
    /// again, the last member of a roll had partitions again.</summary>
    public double? ActionSeconds { get; init; }

    /// <summary>From the event to the last moment the group became stable in its window - every partition owned by exactly
    /// one live member, every live member assigned since it (re)started - and stayed so to the window's end; 0 when the
    /// event never unsettled it; <see langword="null"/> when it was not stable at the window's end.</summary>
    public double? StableAfterSeconds { get; init; }

    /// <summary>The same as its coordinator saw it (the Admin API's <c>DescribeConsumerGroups</c>, asked every 0.1 s): from
    /// the event to the answer after which the group was <c>Stable</c> with exactly the live members, every partition
    /// assigned to one of them (and, under the consumer protocol, each member's assignment its target) to the window's end;
    /// 0 when no answer in the window showed it unsettled; <see langword="null"/> when the last answer did not show it
    /// settled, or the coordinator could not be asked (<see cref="CoordinatorError"/> says why).</summary>
    public double? CoordinatorStableAfterSeconds { get; init; }

    /// <summary>Why <see cref="CoordinatorStableAfterSeconds"/> is missing, when it is: the last answer's error, or why the
    /// coordinator could not be asked.</summary>
    public string? CoordinatorError { get; init; }

    /// <summary>The most assignment callbacks one member had in the window: 1 for one eager rebalance, 2 for an
    /// incremental one that moved partitions (its revocation round and its assignment round).</summary>
    public int AssignmentRounds { get; init; }

    /// <summary>Members that had more than one assignment callback in the window.</summary>
    public int MembersWithSeveralRounds { get; init; }

    /// <summary>The longest time without a record on a partition some member owned before the event and owned again at
    /// the window's end (the pause of the partitions it kept), over the members.</summary>
    public double? LongestKeptGapSeconds { get; init; }

    /// <summary>The same, on partitions a member owned at the window's end but not before the event (the pause of the
    /// partitions that moved).</summary>
    public double? LongestGainedGapSeconds { get; init; }

    /// <summary>Records read again in the window (already read before: redelivered after a revocation or a crash, from the
    /// last committed offset).</summary>
    public long Redelivered { get; init; }

    /// <summary>The largest response time in the window's intervals, in microseconds.</summary>
    public double? PeakResponseMicros { get; init; }

    /// <summary>The largest consumer lag in the window's intervals, in records.</summary>
    public long? PeakLag { get; init; }

    /// <summary>Each member's part, in member order.</summary>
    public IReadOnlyList<RebalanceMember> Members { get; init; } = [];
}

/// <summary>One member of the group through one membership event.</summary>
public sealed record RebalanceMember
{
    /// <summary>The member's number, from 1 (a joiner gets the next one; a restarted member keeps its number).</summary>
    public required int Member { get; init; }

    /// <summary>Live at the window's end (not left, not crashed).</summary>
    public bool Live { get; init; }

    /// <summary>Partitions owned before the event and at the window's end.</summary>
    public int Kept { get; init; }

    /// <summary>Of the partitions it kept, those revoked and assigned again in the window (an eager assignor revokes every
    /// one; an incremental one, none): it stopped reading them meanwhile.</summary>
    public int KeptRevoked { get; init; }

    /// <summary>Partitions owned at the window's end, not before the event.</summary>
    public int Gained { get; init; }

    /// <summary>Partitions owned before the event, not at the window's end.</summary>
    public int Gave { get; init; }

    /// <summary>Assignment callbacks in the window.</summary>
    public int AssignmentRounds { get; init; }

    /// <summary>The longest time without a record on the partitions it kept.</summary>
    public double? KeptGapSeconds { get; init; }

    /// <summary>The longest time without a record on the partitions it gained.</summary>
    public double? GainedGapSeconds { get; init; }
}
