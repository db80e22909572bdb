using KafkaPerf.Clients;
using KafkaPerf.Payloads;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Plans;

/// <summary>
/// A frozen, validated matrix: clients × scenarios × message counts × payload sizes × settings variants,
/// each cell run <see cref="Repeat"/> times per client. Build one with <see cref="BenchmarkPlanBuilder"/>.
/// </summary>
public sealed record BenchmarkPlan
{
    /// <summary>Default topic prefix.</summary>
    public const string DefaultTopicPrefix = "kafkaperf";

    /// <summary>Client names, as registered; the first is the baseline of every comparison.</summary>
    public required IReadOnlyList<string> Clients { get; init; }

    /// <summary>Scenarios to run.</summary>
    public required IReadOnlyList<ScenarioKind> Scenarios { get; init; }

    /// <summary>Messages per run. With <see cref="Rates"/> and a <see cref="Duration"/>: the measured messages of each rate
    /// (rate × duration), for the report's tables.</summary>
    public required IReadOnlyList<long> MessageCounts { get; init; }

    /// <summary>Offered rates in records per second per client, swept like message counts; empty for bursts.</summary>
    public IReadOnlyList<double> Rates { get; init; } = [];

    /// <summary>How long the measured part of each rate run lasts; <see langword="null"/> when a rate run sends
    /// <see cref="MessageCounts"/> records instead.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>A warm-up at the same rate before each rate run's measured part, excluded from every figure.</summary>
    public TimeSpan LoadWarmup { get; init; }

    /// <summary>
    /// How long the plan warms the cluster up before its first run: rounds of produce-then-consume on topics of their own,
    /// the plan's clients in turn, with the first cell's size, partitions, replication and settings. Nothing of it is
    /// recorded as a run. Zero (the default) for none. A cluster that was just started (its brokers' JVMs still
    /// compiling) otherwise makes the plan's first cells slower than the same cells later.
    /// </summary>
    public TimeSpan ClusterWarmup { get; init; }

    /// <summary>The line said as the cluster warm-up starts.</summary>
    /// <param name="when">When it runs: "first", "before the first probe".</param>
    /// <returns>The line.</returns>
    public string ClusterWarmupNotice(string when) => string.Create(System.Globalization.CultureInfo.InvariantCulture,
        $"kafkaperf: warming the cluster up for {ClusterWarmup.TotalSeconds:0.###} s {when} (--cluster-warmup: produce and consume rounds on topics of their own, in no figure)");

    /// <summary>The line said now and then while the cluster warm-up runs (a long one is otherwise silent).</summary>
    /// <param name="round">The round that ended.</param>
    /// <param name="client">Its client.</param>
    /// <param name="elapsed">The warm-up's time so far.</param>
    /// <returns>The line.</returns>
    public string ClusterWarmupProgress(int round, string client, TimeSpan elapsed) => string.Create(System.Globalization.CultureInfo.InvariantCulture,
        $"kafkaperf: cluster warm-up: {Math.Min(elapsed.TotalSeconds, ClusterWarmup.TotalSeconds):0} s of {ClusterWarmup.TotalSeconds:0.###} s, round {round} ({client}) done");

    /// <summary>The length of one interval of a load run's time series.</summary>
    public TimeSpan Interval { get; init; } = KafkaPerf.Scenarios.RateLoad.DefaultInterval;

    /// <summary>Whether the plan sends at rates.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool IsRate => Rates.Count > 0;

    /// <summary>Payload lengths in bytes.</summary>
    public required IReadOnlyList<int> PayloadSizes { get; init; }

    /// <summary>Settings variants (the product of every swept knob).</summary>
    public required IReadOnlyList<ClientSettings> SettingsVariants { get; init; }

    /// <summary>Per-client <c>key=value</c> overrides, passed through unchanged to that client only.</summary>
    /// <remarks>Written with every secret's value hidden (<see cref="MaskedClientSettingsJson"/>).</remarks>
    [System.Text.Json.Serialization.JsonConverter(typeof(MaskedClientSettingsJson))]
    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> ClientOverrides { get; init; } =
        new Dictionary<string, IReadOnlyDictionary<string, string>>();

    /// <summary>Measured repetitions per client and cell.</summary>
    public int Repeat { get; init; } = 5;

    /// <summary>Run one excluded warm-up per client and cell first (burst cells; a rate run warms up within itself,
    /// <see cref="LoadWarmup"/>).</summary>
    public bool Warmup { get; init; } = true;

    /// <summary>How clients take turns.</summary>
    public RunOrderKind Order { get; init; } = RunOrderKind.Balanced;

    /// <summary>Seed of payloads and of shuffled orders; recorded in the result.</summary>
    public int Seed { get; init; } = 42;

    /// <summary>What payload bytes look like.</summary>
    public PayloadKind Payload { get; init; } = PayloadKind.Random;

    /// <summary>The file whose bytes make the payload when <see cref="Payload"/> is <see cref="PayloadKind.File"/>.</summary>
    public string? PayloadFile { get; init; }

    /// <summary>Prefix of every topic name.</summary>
    public string TopicPrefix { get; init; } = DefaultTopicPrefix;

    /// <summary>Partitions per topic.</summary>
    public int Partitions { get; init; } = 1;

    /// <summary>Replicas of each run's topic; <see langword="null"/>: as many as the cluster has brokers, at most 3
    /// (<see cref="ReplicationFactorFor"/>).</summary>
    public int? ReplicationFactor { get; init; }

    /// <summary>The <c>min.insync.replicas</c> of each run's topic; <see langword="null"/>: the broker's default.</summary>
    public int? MinInSyncReplicas { get; init; }

    /// <summary>The replication factor of the topics on a cluster of <paramref name="brokers"/> brokers.</summary>
    /// <param name="brokers">The cluster's brokers; <see langword="null"/> when unknown (taken as 1).</param>
    /// <returns><see cref="ReplicationFactor"/>, else min(3, brokers).</returns>
    public int ReplicationFactorFor(int? brokers) => ReplicationFactor ?? Math.Clamp(brokers ?? 1, 1, 3);

    /// <summary>A run's topic partitions: the variant's or the plan's, and at least one per consumer of a classic group (a
    /// share group's members share partitions: its topic keeps the partitions it is given).</summary>
    /// <param name="cell">The cell.</param>
    /// <returns>The partition count.</returns>
    public int PartitionsOf(PlanCell cell)
    {
        ArgumentNullException.ThrowIfNull(cell);
        int partitions = cell.Settings.Partitions ?? Partitions;
        return cell.Settings.Group.IsShare() ? partitions : Math.Max(partitions, cell.Settings.Consumers ?? 1);
    }

    /// <summary>Keep topics after their run instead of deleting them.</summary>
    public bool KeepTopics { get; init; }

    /// <summary>Ask consumers to prefetch on a thread of their own, where the client has it.</summary>
    public bool UsePrefetch { get; init; }

    /// <summary>Record where each interval's time went (the clients' own statistics, collections); <c>--no-breakdown</c>
    /// turns it off for the bare client.</summary>
    public bool Breakdown { get; init; } = true;

    /// <summary>Compare every consumed payload with the one sent.</summary>
    public bool CheckPayload { get; init; }

    /// <summary>A consume with no progress for this long fails.</summary>
    public TimeSpan StallTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Reference tools (e.g. <c>kcat</c>, <c>kafka-tools</c>) that run beside the clients in produce and consume
    /// cells; they are also the last entries of <see cref="Clients"/>, so they are compared with the baseline like any client.</summary>
    public IReadOnlyList<string> References { get; init; } = [];

    /// <summary>Tolerance band of the on-par verdict (0.05 = ±5 %).</summary>
    public double Tolerance { get; init; } = 0.05;

    /// <summary>Faults fired in every measured run, as <c>--fault</c> spells them (<see cref="Clients.FaultSpec"/>).</summary>
    public IReadOnlyList<string> Faults { get; init; } = [];

    /// <summary>Membership events of the run's consumer group fired in every measured run (<c>--fault join:consumer@10s</c>
    /// and the like, <see cref="Clients.GroupEventSpec"/>); kept apart from <see cref="Faults"/>, which act on nodes.</summary>
    public IReadOnlyList<string> GroupEvents { get; init; } = [];

    /// <summary>The latency goal that recovery from a fault is measured against (<c>run --slo</c>), e.g. <c>p99&lt;20ms</c>.</summary>
    public string? RecoveryGoal { get; init; }

    /// <summary>The cells, in the order they run.</summary>
    /// <returns>Every cell of the matrix.</returns>
    public IEnumerable<PlanCell> Cells()
    {
        foreach (var scenario in Scenarios)
        {
            foreach (var settings in SettingsVariants)
            {
                if (Rates.Count == 0)
                {
                    foreach (var messages in MessageCounts)
                        foreach (var size in PayloadSizes)
                            yield return new PlanCell(scenario, messages, size, settings);
                    continue;
                }
                foreach (var rate in Rates)
                {
                    foreach (var messages in Duration is { } duration ? [MeasuredRecords(rate, duration)] : MessageCounts)
                        foreach (var size in PayloadSizes)
                            yield return new PlanCell(scenario, messages, size, settings, rate);
                }
            }
        }
    }

    /// <summary>Runs in the plan, warm-ups included (references run no warm-up and only produce and consume; rate cells
    /// run no warm-up run).</summary>
    public int TotalRuns => SearchedRuns ?? Cells().Sum(cell => ClientsFor(cell).Sum(client => Repeat + (HasWarmupRun(cell, client) ? 1 : 0)));

    /// <summary>The runs a rate search's probes ran, where the plan is a search's record: its rates are the rates probed,
    /// and not every client and cell was probed at every one of them. <see langword="null"/> for a plan run whole.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public int? SearchedRuns { get; init; }

    /// <summary>Whether a client runs an excluded warm-up run first in a cell: a client (not a reference) in a burst cell.</summary>
    /// <param name="cell">The cell.</param>
    /// <param name="client">The client.</param>
    /// <returns><see langword="true"/> when it does.</returns>
    public bool HasWarmupRun(PlanCell cell, string client)
    {
        ArgumentNullException.ThrowIfNull(cell);
        return Warmup && !cell.IsRate && !IsReference(client);
    }

    /// <summary>The load of a rate cell: its rate, duration, the plan's warm-up and interval.</summary>
    /// <param name="cell">A cell.</param>
    /// <returns>The load; <see langword="null"/> for a burst cell.</returns>
    public KafkaPerf.Scenarios.RateLoad? LoadOf(PlanCell cell)
    {
        ArgumentNullException.ThrowIfNull(cell);
        return cell.Rate is { } rate ? new KafkaPerf.Scenarios.RateLoad(rate, cell.MeasuredDuration, LoadWarmup, Interval) : null;
    }

    /// <summary>The measured records of a rate run of a given duration.</summary>
    /// <param name="rate">Records per second.</param>
    /// <param name="duration">The measured duration.</param>
    /// <returns>rate × duration, at least 1.</returns>
    public static long MeasuredRecords(double rate, TimeSpan duration) => Math.Max(1, (long)Math.Round(rate * duration.TotalSeconds));

    /// <summary>Whether a client of the plan is a reference tool (<see cref="References"/>).</summary>
    /// <param name="client">A client name.</param>
    /// <returns><see langword="true"/> for a reference.</returns>
    public bool IsReference(string client) => References.Contains(client, StringComparer.OrdinalIgnoreCase);

    /// <summary>The clients that run a cell, in plan order: every client, and the references in produce and consume cells.</summary>
    /// <param name="cell">The cell.</param>
    /// <returns>Client names.</returns>
    public IReadOnlyList<string> ClientsFor(PlanCell cell)
    {
        ArgumentNullException.ThrowIfNull(cell);
        return References.Count == 0 || ReferencesRun(cell.Scenario) ? Clients : [.. Clients.Where(c => !IsReference(c))];
    }

    /// <summary>Whether references run cells of a scenario: produce and consume, not roundtrip.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <returns><see langword="true"/> for produce and consume.</returns>
    public static bool ReferencesRun(ScenarioKind scenario) => scenario is ScenarioKind.Produce or ScenarioKind.Consume;

    /// <summary>The settings one client runs a cell with: the variant plus that client's overrides.</summary>
    /// <param name="cell">The cell.</param>
    /// <param name="client">The client name.</param>
    /// <returns>The settings.</returns>
    public ClientSettings SettingsFor(PlanCell cell, string client)
    {
        ArgumentNullException.ThrowIfNull(cell);
        return SettingsFor(cell.Settings, client);
    }

    /// <summary>A settings variant with one client's overrides applied.</summary>
    /// <param name="variant">One of <see cref="SettingsVariants"/>.</param>
    /// <param name="client">The client name.</param>
    /// <returns>The settings that client runs with.</returns>
    public ClientSettings SettingsFor(ClientSettings variant, string client)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return ClientOverrides.TryGetValue(client, out var overrides) && overrides.Count > 0
            ? variant with { Overrides = overrides }
            : variant;
    }

    /// <summary>Caveats found while building the plan (e.g. an override that replaces a common setting); the runner
    /// puts them into the result.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyList<string> Warnings { get; init; } = [];
}
