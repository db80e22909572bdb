using System.Globalization;
using System.Text.Json.Serialization;
using HdrHistogram;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// One run: what a scenario measured (its counts, histograms and time series) and, once the runner has placed it, which
/// run it was (its client, cell and topic) and what follows from its figures (rates, percentiles). The one model of a
/// run: the result's rows, the CSV, the charts and a worker's part (<see cref="WorkerPart"/>) are views of it. Warm-ups are
/// kept (flagged) but never enter statistics.
/// </summary>
public sealed record RunRecord
{
    /// <summary>Position in the plan, from 1.</summary>
    public int Sequence { get; init; }

    /// <summary>Client name.</summary>
    public string Client { get; init; } = string.Empty;

    /// <summary>Scenario.</summary>
    public ScenarioKind Scenario { get; init; }

    /// <summary>Messages in the run.</summary>
    public long MessageCount { get; init; }

    /// <summary>Payload length in bytes.</summary>
    public int PayloadBytes { get; init; }

    /// <summary>Settings variant label.</summary>
    public string Variant { get; init; } = string.Empty;

    /// <summary>Repetition of this client in this cell, from 1; 0 for the warm-up.</summary>
    public int Repetition { get; init; }

    /// <summary>Whether this was the excluded warm-up.</summary>
    public bool IsWarmup { get; init; }

    /// <summary>The run's topic.</summary>
    public string Topic { get; init; } = string.Empty;

    /// <summary>The timed section in seconds (NaN when the run failed).</summary>
    public double ElapsedSeconds { get; init; }

    /// <summary>Messages per second (NaN until <see cref="Summarized"/>, and for a failed run).</summary>
    public double MessagesPerSecond { get; init; } = double.NaN;

    /// <summary>Payload megabytes (10^6 bytes) per second.</summary>
    public double MegabytesPerSecond { get; init; } = double.NaN;

    /// <summary>Consume and roundtrip bursts: seconds from the timed section's start (consume: the partitions' assignment;
    /// roundtrip: the first send) to the first record received, part of <see cref="ElapsedSeconds"/>; <see langword="null"/>
    /// for other runs and for a failed one.</summary>
    /// <remarks>A start-up wait (librdkafka's consumer of a new group waits about 100 ms before its first fetch) shows here,
    /// not in <see cref="MessagesPerSecondAfterFirst"/>.</remarks>
    public double? FirstRecordSeconds { get; init; }

    /// <summary>The rate after the first record: the records after it (<see cref="MessageCount"/> − 1) over the time from it
    /// to the last expected record (<see cref="ElapsedSeconds"/> − <see cref="FirstRecordSeconds"/>); <see langword="null"/>
    /// until <see cref="Summarized"/>, without <see cref="FirstRecordSeconds"/>, and for a run of one record.</summary>
    public double? MessagesPerSecondAfterFirst { get; init; }

    /// <summary>Records sent.</summary>
    public long Sent { get; init; }

    /// <summary>Records acknowledged by the broker.</summary>
    public long Delivered { get; init; }

    /// <summary>Records consumed (every arrival, duplicates included).</summary>
    public long Received { get; init; }

    /// <summary>Acknowledged records proven lost: a read of their partition went past the offset at which they were
    /// acknowledged without seeing them. 0 for a produce run, which reads nothing back (its unacknowledged records are
    /// <see cref="Sent"/> − <see cref="Delivered"/>).</summary>
    public long Lost { get; init; }

    /// <summary>Acknowledged records the run's read did not see and could not prove lost: the read of some partition
    /// stopped before their offsets (<see cref="NotVerifiedReason"/> says where). Never counted in <see cref="Lost"/>.</summary>
    public long NotVerified { get; init; }

    /// <summary>Why records are <see cref="NotVerified"/>, with where the read stopped (<c>read to offset 1200 of 2749 on
    /// partition 0 in 20 s</c>); <see langword="null"/> when every acknowledged record was seen or proven lost, or nothing
    /// was read.</summary>
    public string? NotVerifiedReason { get; init; }

    /// <summary>Records consumed more than once.</summary>
    public long Duplicates { get; init; }

    /// <summary>Consumed keys outside 0..N-1.</summary>
    public long Unexpected { get; init; }

    /// <summary>Consumed payloads that differ from the one sent (only when payload checking is on).</summary>
    public long PayloadMismatches { get; init; }

    /// <summary>Whether prefetching was on for the consumer.</summary>
    public bool PrefetchEnabled { get; init; }

    /// <summary>Whether the run succeeded: no error, every record read accounted for, nothing lost, no duplicate (but those
    /// a membership event redelivered: the at-least-once cost it measures), nothing unexpected.</summary>
    public bool Succeeded => Error is null && Lost == 0 && NotVerifiedReason is null && Duplicates <= Redelivered && Unexpected == 0 && PayloadMismatches == 0;

    /// <summary>Records read again after a membership event (<see cref="Rebalances"/>): redelivered from the last committed
    /// offset, as the group promises, and no fault of the client's.</summary>
    [JsonIgnore]
    public long Redelivered => Rebalances?.Sum(r => r.Redelivered) ?? 0;

    /// <summary>Whether the run's read accounted for every acknowledged record (seen or proven lost), or read nothing.</summary>
    [JsonIgnore]
    public bool Verified => NotVerifiedReason is null;

    /// <summary>Why the run failed; <see langword="null"/> when it succeeded.</summary>
    public string? Error { get; init; }

    /// <summary>How much each of the client's own counters (<see cref="Clients.IBenchClient.ReadCounters"/>, e.g.
    /// <c>jni.calls</c>) grew per message during the timed section; <see langword="null"/> when the client keeps none.</summary>
    public IReadOnlyDictionary<string, double>? CountersPerMessage { get; init; }

    /// <summary>What the timed section used: CPU, collections, allocations, the broker's CPU and the topic's bytes on
    /// disk; <see langword="null"/> when the run failed before its timed section ended.</summary>
    public RunResources? Resources { get; init; }

    /// <summary>Latency percentiles of this run (send→ack or produce→consume), when measured.</summary>
    public LatencySummary? Latency { get; init; }

    /// <summary>Send→ack (produce) or produce→consume (roundtrip) latency in nanoseconds; <see langword="null"/> when not
    /// measured. Kept in memory so that cells merge histograms rather than average percentiles.</summary>
    [JsonIgnore]
    public HistogramBase? LatencyHistogram { get; init; }

    /// <summary>Every how many records one was timed for <see cref="Latency"/>: 1 (all) up to 131 072 records, then a
    /// power of two keeping 65 536 to 131 072 samples; at a rate, 1 up to 131 072 records per second, then a power of two
    /// keeping at most that many a second (see <see cref="LatencySampling"/>).</summary>
    public int LatencySampleStride { get; init; } = 1;

    /// <summary>The offered rate in records per second; <see langword="null"/> for a burst.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>The rate at which the measured records were really sent, in records per second (rate runs).</summary>
    public double? AchievedRate { get; init; }

    /// <summary>Response time: from when each timed record was due (rate runs; <see cref="Latency"/> is this too).</summary>
    public LatencySummary? ResponseTime { get; init; }

    /// <summary>Service time: from when each timed record was actually sent (load runs).</summary>
    public LatencySummary? ServiceTime { get; init; }

    /// <summary>Send delay: actual − intended send time (rate runs).</summary>
    public LatencySummary? SendDelay { get; init; }

    /// <summary>Response time in nanoseconds: from when each timed record was due to its acknowledgement (produce) or
    /// arrival (roundtrip); rate runs only. It includes every delay of the sender, so a stall cannot hide.</summary>
    [JsonIgnore]
    public HistogramBase? ResponseTimeHistogram { get; init; }

    /// <summary>Service time in nanoseconds: from when each timed record was actually sent (load runs).</summary>
    [JsonIgnore]
    public HistogramBase? ServiceTimeHistogram { get; init; }

    /// <summary>Send delay in nanoseconds: actual − intended send time of each timed record (rate runs).</summary>
    [JsonIgnore]
    public HistogramBase? SendDelayHistogram { get; init; }

    /// <summary>Where a burst's time went over its timed section (<c>--no-breakdown</c> leaves it out): its clients' own
    /// figures averaged over one reading a second, the collections and the broker's figures over the section. A load run
    /// has it per interval (<see cref="IntervalRecord.Breakdown"/>).</summary>
    public IntervalBreakdown? Breakdown { get; init; }

    /// <summary>The time series of a load run, one entry per interval.</summary>
    public IReadOnlyList<IntervalRecord>? Intervals { get; init; }

    /// <summary>When the first record was due (wall clock), for the intervals' absolute times.</summary>
    public DateTimeOffset? StartedAtUtc { get; init; }

    /// <summary>Records of the warm-up at the start of a rate run, excluded from every figure.</summary>
    public long WarmupRecords { get; init; }

    /// <summary>Producer instances that sent the run's records.</summary>
    public int Producers { get; init; } = 1;

    /// <summary>Consumers in the run's group.</summary>
    public int Consumers { get; init; } = 1;

    /// <summary>Timed records whose service time could not be recorded: still in flight after
    /// <see cref="Load.SendTimeRing.MaxCapacity"/> newer timed records (their response time was recorded).</summary>
    public long ServiceTimeMissed { get; init; }

    /// <summary>The run's faults (<c>--fault</c>) and how its client recovered from each; <see langword="null"/> without.</summary>
    public IReadOnlyList<FaultRecord>? Faults { get; init; }

    /// <summary>The run's membership events (<c>--fault join:consumer@10s</c> and the like) and how its group went through
    /// each; <see langword="null"/> without.</summary>
    public IReadOnlyList<RebalanceRecord>? Rebalances { get; init; }

    /// <summary>The run's transactions (<c>--transactions</c>): committed, aborted, and each one's latency; none without.</summary>
    public TransactionRecord? Transactions { get; init; }

    /// <summary>The network the run went through (<c>--network</c>): the spec asked, the links' round trip measured before
    /// the first run that asked it, the proxies' CPU and bytes over the run; none on direct loopback.</summary>
    public NetworkRecord? Network { get; init; }

    /// <summary>A roundtrip's consumer backlog (<c>--backlog</c>): when it was reached, when the consumers caught up, how
    /// fast they drained it; none without.</summary>
    public BacklogRecord? Backlog { get; init; }

    /// <summary>Each worker's part when workers ran the run together (<c>--workers</c>, <c>--processes</c>); the run's own
    /// figures are their sum, its histograms their exact merge. <see langword="null"/> for a run of this process.</summary>
    public IReadOnlyList<WorkerPart>? Workers { get; init; }

    /// <summary>The producer's effective configuration, when one was used (the result keeps it once per client).</summary>
    [JsonIgnore]
    public IReadOnlyDictionary<string, string>? ProducerConfig { get; init; }

    /// <summary>The consumer's effective configuration, when one was used.</summary>
    [JsonIgnore]
    public IReadOnlyDictionary<string, string>? ConsumerConfig { get; init; }

    /// <summary>A run that failed: nothing timed, nothing read.</summary>
    /// <param name="error">Why.</param>
    /// <returns>The record.</returns>
    public static RunRecord Failed(string error) => new() { ElapsedSeconds = double.NaN, Error = error };

    /// <summary>The record with what its read proved: the records it proved lost, and those it could not verify.</summary>
    /// <param name="outcome">The read's outcome.</param>
    /// <returns>The record.</returns>
    public RunRecord With(ReadOutcome outcome) => this with { Lost = outcome.Lost, NotVerified = outcome.NotVerified, NotVerifiedReason = outcome.Reason };

    /// <summary>The record with what follows from its figures and its identity (<see cref="MessageCount"/>,
    /// <see cref="PayloadBytes"/>): rates, percentile summaries of its histograms, and the error of a failed
    /// verification.</summary>
    /// <returns>The summarized record.</returns>
    public RunRecord Summarized()
    {
        bool timed = Succeeded && ElapsedSeconds > 0;
        double messagesPerSecond = timed ? MessageCount / ElapsedSeconds : double.NaN;
        double? first = Succeeded ? FirstRecordSeconds : null;
        return this with
        {
            ElapsedSeconds = Succeeded ? ElapsedSeconds : double.NaN,
            MessagesPerSecond = messagesPerSecond,
            FirstRecordSeconds = first,
            MessagesPerSecondAfterFirst = timed && first is { } f && ElapsedSeconds > f && MessageCount > 1 ? (MessageCount - 1) / (ElapsedSeconds - f) : null,
            MegabytesPerSecond = timed ? messagesPerSecond * PayloadBytes / 1e6 : double.NaN,
            Error = Error ?? (Succeeded ? null : VerificationError),
            Latency = Summary(LatencyHistogram),
            ResponseTime = Summary(ResponseTimeHistogram),
            ServiceTime = Summary(ServiceTimeHistogram),
            SendDelay = Summary(SendDelayHistogram),
        };
    }

    /// <summary>What a verification that failed found.</summary>
    [JsonIgnore]
    public string VerificationError => NotVerifiedReason is { } reason && Lost == 0 && Duplicates <= Redelivered && Unexpected == 0 && PayloadMismatches == 0
        ? $"not verified: {reason}"
        : string.Create(CultureInfo.InvariantCulture,
            $"verification failed: {Lost} lost, {Duplicates} duplicated, {Unexpected} unexpected, {PayloadMismatches} payload mismatches{(NotVerifiedReason is { } r ? $"; not verified: {r}" : string.Empty)}");

    private static LatencySummary? Summary(HistogramBase? histogram) =>
        histogram is { TotalCount: > 0 } h ? LatencySummary.From(h, unitsPerMicrosecond: 1000) : null;
}
