using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>Everything one run of a scenario needs; built by the runner before timing starts.</summary>
public sealed record ScenarioContext
{
    /// <summary>The client under test.</summary>
    public required IBenchClient Client { get; init; }

    /// <summary>The run's own topic, already created.</summary>
    public required string Topic { get; init; }

    /// <summary>The topic's partitions: the reads' proofs are kept per partition.</summary>
    public int Partitions { get; init; } = 1;

    /// <summary>How many records to send (and expect).</summary>
    public required long MessageCount { get; init; }

    /// <summary>The prebuilt payload.</summary>
    public required ReadOnlyMemory<byte> Payload { get; init; }

    /// <summary>Common knobs and this client's overrides.</summary>
    public required ClientSettings Settings { get; init; }

    /// <summary>Ask consumers to prefetch on a thread of their own.</summary>
    public bool UsePrefetch { get; init; }

    /// <summary>Compare every consumed payload byte for byte with the one sent.</summary>
    public bool CheckPayload { get; init; }

    /// <summary>Any wait of the run that sees no progress for this long (no acknowledgement, no record, no answer) ends it
    /// as a failed run that says what stalled.</summary>
    public TimeSpan StallTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Reads the broker's CPU and the topic's bytes on disk around the timed section; none when <see langword="null"/>.</summary>
    public IBrokerProbe? Broker { get; init; }

    /// <summary>The shaping proxies this run goes through, in this process: their threads' CPU is read around the timed
    /// section and kept out of the client's; none when <see langword="null"/>.</summary>
    public INetworkShaper? Network { get; init; }

    /// <summary>Reads the broker's request metrics and collections per interval (with <see cref="Breakdown"/>); none when
    /// <see langword="null"/>.</summary>
    public IBrokerBreakdown? BrokerBreakdown { get; init; }

    /// <summary>A rate, warm-up and duration; <see langword="null"/> for a burst of <see cref="MessageCount"/> records.</summary>
    public RateLoad? Load { get; init; }

    /// <summary>Producer instances, each on its own thread, sharing the records (and the rate).</summary>
    public int Producers { get; init; } = 1;

    /// <summary>Consumers in one group (roundtrip and consume).</summary>
    public int Consumers { get; init; } = 1;

    /// <summary>The length of one interval of a load run's time series.</summary>
    public TimeSpan Interval { get; init; } = RateLoad.DefaultInterval;

    /// <summary>Whether a load run records where each interval's time went (<c>BenchmarkPlan.Breakdown</c>).</summary>
    public bool Breakdown { get; init; }

    /// <summary>The clock.</summary>
    public IClock Clock { get; init; } = StopwatchClock.Instance;

    /// <summary>Told where the timed section starts and stops, for <c>--profile</c>; <see langword="null"/> when the run is
    /// not profiled.</summary>
    public ISectionProfiler? Profiler { get; init; }

    /// <summary>What a run with faults records (load runs at a rate); <see langword="null"/> without faults.</summary>
    public FaultWatch? Faults { get; init; }

    /// <summary>Asks the group's coordinator how it sees the group during membership events; <see langword="null"/> when
    /// it cannot be asked (the rebalance figures are then the members' callbacks only).</summary>
    public IGroupCoordinatorView? GroupCoordinator { get; init; }

    /// <summary>Membership events fired in this run (<see cref="GroupEventSpec"/>), in their order; none when empty.</summary>
    public IReadOnlyList<GroupEventSpec> GroupEvents { get; init; } = [];

    /// <summary>A member's <c>group.instance.id</c> under static membership, kept when it restarts; <see langword="null"/>
    /// for dynamic members.</summary>
    /// <param name="member">The member's number, from 1.</param>
    /// <returns>The id.</returns>
    public string? InstanceIdOf(int member) => Settings.StaticMembership == true ? $"{GroupId}-member-{member}" : null;

    /// <summary>The consumer group of this run: its own, also when it reads a topic another run filled (by default the
    /// topic's name and <c>__group</c>).</summary>
    public string GroupId
    {
        get => _groupId ?? GroupOf(Topic);
        init => _groupId = value;
    }

    private readonly string? _groupId;

    /// <summary>The consumer group of the run whose own topic is <paramref name="topic"/>.</summary>
    internal static string GroupOf(string topic) => topic + "__group";

    /// <summary>A consume's topic filled once for its client's runs in the cell: the run fills it when nothing filled it
    /// yet, and reads it without filling when a run before it did; <see langword="null"/>: the run fills its own topic.</summary>
    internal TopicFill? Fill { get; init; }

    /// <summary>A ledger of the offsets at which this run's records are acknowledged, for the reads' proofs: the records
    /// of aborted transactions are left out (a reader of committed records never sees them).</summary>
    /// <param name="records">The ids sent, 0..records-1.</param>
    /// <returns>The ledger.</returns>
    public AcknowledgedOffsets NewAcknowledgedOffsets(long records) =>
        new(Partitions, records, Settings is { TransactionRecords: { } size, AbortRatio: { } ratio } && ratio > 0 ? id => TransactionPlan.IsAbortedRecord(id, size, ratio) : null);

    /// <summary>How far this run's reads go, per partition (read out of order in a share group).</summary>
    /// <returns>The positions.</returns>
    public ReadPositions NewReadPositions() => new(Partitions, ordered: !Settings.Group.IsShare());

    /// <summary>The spec of one of this run's producers.</summary>
    /// <param name="cancellation">Ends the producer's blocking calls: the run's token or a stall watch's.</param>
    /// <returns>The spec.</returns>
    public ProducerSpec ProducerSpec(CancellationToken cancellation) =>
        new(Topic, Settings) { Cancellation = cancellation, StallTimeout = StallTimeout };

    private ProducerSpec ProducerSpec(bool statistics, CancellationToken cancellation) => ProducerSpec(cancellation) with { Statistics = statistics };

    /// <summary>Counts and times the measured producer's transactions (<see cref="ClientSettings.TransactionRecords"/>);
    /// <see langword="null"/> without transactions.</summary>
    public TransactionRecorder? Transactions { get; init; }

    /// <summary>One of this run's producers: its records' ids stamped into their values when keys do not carry them, and
    /// in transactions when the run has them.</summary>
    /// <param name="sink">Receives its delivery reports.</param>
    /// <param name="cancellation">Ends the producer's blocking calls: the run's token or a stall watch's.</param>
    /// <param name="measured">Whether its transactions are the run's figures (not those of a topic filled before consuming).</param>
    /// <returns>A producer that the caller disposes.</returns>
    /// <param name="breakdown">Receives the client's producer when it can say where its records' time went
    /// (<see cref="IClientBreakdown"/>); the producer then collects its statistics. None: it collects none.</param>
    public IBenchProducer CreateProducer(IDeliverySink sink, CancellationToken cancellation, bool measured = true, Action<IClientBreakdown>? breakdown = null)
    {
        var raw = Client.CreateProducer(ProducerSpec(statistics: breakdown is not null, cancellation), sink);
        if (raw is IClientBreakdown source) breakdown?.Invoke(source);
        var producer = RecordIdInValue.Wrap(raw, Settings);
        return Settings.TransactionRecords is { } records
            ? new TransactionalProducer(producer, records, Settings.AbortRatio ?? 0, Clock, measured ? Transactions : null, cancellation)
            : producer;
    }

    /// <summary>One of this run's consumers, reading records' ids from their values when keys do not carry them.</summary>
    /// <param name="cancellation">Makes disposing the consumer wait for nothing: the run's token or a stall watch's.</param>
    /// <returns>A consumer that the caller disposes.</returns>
    /// <param name="breakdown">Receives the client's consumer when it can say where its time went (<see cref="IClientBreakdown"/>);
    /// the consumer then collects its statistics. None: it collects none.</param>
    /// <param name="instanceId">The member's <c>group.instance.id</c> (<see cref="InstanceIdOf"/>); member 1's when none is
    /// given (a run's only consumer), none for dynamic members.</param>
    public IBenchConsumer CreateConsumer(CancellationToken cancellation, Action<IClientBreakdown>? breakdown = null, string? instanceId = null)
    {
        var raw = Client.CreateConsumer(ConsumerSpec(cancellation) with { Statistics = breakdown is not null, InstanceId = instanceId ?? InstanceIdOf(1) });
        if (raw is IClientBreakdown source) breakdown?.Invoke(source);
        return RecordIdInValue.Wrap(raw, Settings);
    }

    /// <summary>The spec of one of this run's consumers.</summary>
    /// <param name="cancellation">Makes disposing the consumer wait for nothing: the run's token or a stall watch's.</param>
    /// <returns>The spec.</returns>
    public ConsumerSpec ConsumerSpec(CancellationToken cancellation) =>
        new(Topic, GroupId, Settings, UsePrefetch) { Cancellation = cancellation, StallTimeout = StallTimeout };
}
