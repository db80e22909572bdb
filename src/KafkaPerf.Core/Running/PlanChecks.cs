using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>What a runner checks before a plan runs: whether it can run here (<see cref="Validate"/>), and what its
/// results should be read with (the warnings said when it starts).</summary>
internal sealed class PlanChecks
{
    private readonly ClientRegistry _registry;
    private readonly ClusterFacts _cluster;

    /// <param name="registry">The clients plans may name.</param>
    /// <param name="cluster">What is known of the cluster, started or not.</param>
    internal PlanChecks(ClientRegistry registry, ClusterFacts cluster)
    {
        _registry = registry;
        _cluster = cluster;
    }

    /// <summary>Why the kernel's netem cannot be used here; tests give their own.</summary>
    internal Func<string?> Netem { get; init; } = NetworkChecks.NetemRefusal;

    /// <summary>The one list of a plan's refusals: the session asks it before anything starts, knowing whether workers
    /// will run the plan; the runner again before it runs.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="onWorkers">Whether workers run it (what they cannot run is refused) or this process (what the cluster
    /// cannot do of its faults is).</param>
    internal IReadOnlyList<ValidationError> All(BenchmarkPlan plan, bool onWorkers)
    {
        var where = onWorkers ? WorkerErrors(plan) : FaultChecks.ClusterErrors(plan, _cluster);
        where = where.Concat(NetworkChecks.Errors(plan, _cluster, Netem));
        return [.. Validate(plan), .. where.Select(e => new ValidationError(ValidationSeverity.Error, e))];
    }

    /// <summary>Checks that every client of the plan is registered and has what it needs.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>Findings; empty when the plan can run here.</returns>
    internal IReadOnlyList<ValidationError> Validate(BenchmarkPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var errors = new List<ValidationError>();
        foreach (var name in plan.Clients)
        {
            if (!_registry.TryGet(name, out var factory))
                errors.Add(new ValidationError(ValidationSeverity.Error, plan.IsReference(name) ? _registry.UnknownReferenceMessage(name) : _registry.UnknownClientMessage(name)));
            else if (factory.IsReference != plan.IsReference(name))
                errors.Add(new ValidationError(ValidationSeverity.Error, factory.IsReference
                    ? $"'{name}' is a reference tool, not a client: name it in --references."
                    : $"'{name}' is a client, not a reference tool: name it in --clients."));
            else if (factory.CheckAvailability() is { } unavailable)
                errors.Add(new ValidationError(ValidationSeverity.Error, $"Client '{name}' cannot run here: {unavailable}"));
            else if (plan.SettingsVariants.Select(v => factory.CheckSettings(plan.SettingsFor(v, name))).FirstOrDefault(p => p is not null) is { } badSettings)
                errors.Add(new ValidationError(ValidationSeverity.Error, $"Client '{name}' does not accept its settings: {badSettings}"));
            else if (!factory.Capabilities.HasFlag(ClientCapabilities.Workloads) && plan.SettingsVariants.Any(v => plan.SettingsFor(v, name).HasWorkload))
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"'{name}' cannot key records other than by their id, nor add headers (--keys, --key-size, --headers): leave it out of this plan, or run it without them."));
            else if (!factory.Capabilities.HasFlag(ClientCapabilities.Transactions) && plan.SettingsVariants.Any(v => v.TransactionRecords is not null))
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"'{name}' has no transactions (--transactions): leave it out of this plan, or run it without them."));
            else if (!factory.Capabilities.HasFlag(ClientCapabilities.ShareGroups) && plan.SettingsVariants.Any(v => v.Group.IsShare()))
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"'{name}' has no share-group consumer (--group share): leave it out of this plan, or run it with --group classic."));
            else if (!factory.Capabilities.HasFlag(ClientCapabilities.GroupMembership)
                     && (plan.GroupEvents.Count > 0 || plan.SettingsVariants.Any(v => v.GroupProtocol is not null || v.Assignor is not null || v.StaticMembership is not null)))
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"'{name}' cannot take group settings or membership events (--group-protocol, --assignor, --static-membership, --fault join:consumer@…): leave it out of this plan."));
            else if (factory.RequiresBroker && !_cluster.HasBroker)
                errors.Add(new ValidationError(ValidationSeverity.Error, $"Client '{name}' needs a Kafka broker: give one with --bootstrap host:port."));
        }
        if (_cluster.Brokers is { } brokers)
        {
            int replicas = plan.ReplicationFactorFor(brokers);
            if (replicas > brokers)
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"Replication factor {replicas} is more than the cluster's {brokers} broker(s): use --replication-factor {brokers} or less, or a cluster with more brokers (--brokers {replicas})."));
            else if (plan.MinInSyncReplicas is { } minIsr && minIsr > replicas)
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"min.insync.replicas {minIsr} is more than the topics' replication factor {replicas}: no write with acks=all could succeed; use --min-insync-replicas {replicas} or less."));
        }
        return errors;
    }

    /// <summary>What workers (<c>--processes</c>, <c>--workers</c>) cannot run of the plan, whatever the cluster: each
    /// said before the broker or any worker starts.</summary>
    /// <param name="plan">The plan.</param>
    internal IEnumerable<string> WorkerErrors(BenchmarkPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (!plan.Clients.Any(c => _registry.TryGet(c, out var factory) && factory.RequiresBroker))
            yield return "--workers and --processes meet on the Kafka cluster: a plan whose clients need no broker (memory) runs in this process; leave them out.";
        if (plan.Faults.Count > 0 || plan.GroupEvents.Count > 0)
            yield return "--fault runs with the clients of this process only: workers (--processes, --workers) do not take faults or membership events yet; leave them out.";
        if (plan.SettingsVariants.Any(v => v.TransactionRecords is not null || v.BacklogBytes is not null || v.Group.IsShare()))
            yield return "Workers (--processes, --workers) do not run transactions, a backlog or share groups yet: run --transactions, --backlog and --group share in one process.";
        // Each worker numbers its members from 1: static members of two workers would share instance ids and fence each other.
        if (plan.SettingsVariants.Any(v => v.StaticMembership == true))
            yield return "Workers (--processes, --workers) do not run static membership yet (each would give its members the same instance ids): run --static-membership on in one process.";
        // The plan reaches the workers as a document, and a document never carries a secret.
        if (plan.ClientOverrides.SelectMany(c => c.Value.Select(s => (Client: c.Key, s.Key, s.Value))).FirstOrDefault(s => KafkaSecurity.IsSecret(s.Key, s.Value)) is { Client: not null } secret)
            yield return $"-X {secret.Client}:{secret.Key} holds a secret, and workers get the plan as a document that never carries one: give credentials with --sasl-credentials FILE on the coordinator and every worker.";
    }

    internal IEnumerable<string> SettingsWarnings(BenchmarkPlan plan) =>
        plan.Clients.SelectMany(name => plan.SettingsVariants.SelectMany(variant => _registry.Get(name).SettingsWarnings(plan.SettingsFor(variant, name))
                .Concat(plan.Faults.Count > 0 ? _registry.Get(name).FailoverWarnings(plan.SettingsFor(variant, name)) : [])))
            .Distinct(StringComparer.Ordinal);

    /// <summary>A rate plan on a cluster started for it, without a cluster warm-up: its first cells measure the cluster's
    /// JVMs compiling (docs/BENCHMARKS.md, "A just-started cluster").</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="remote">Where its runs run, when not in this process.</param>
    /// <param name="servedLoad">Whether a plan of the same runner has already run on the cluster.</param>
    internal IEnumerable<string> ColdClusterWarning(BenchmarkPlan plan, IRemoteRuns? remote, bool servedLoad)
    {
        if (plan.IsRate && _cluster.Ephemeral && plan.ClusterWarmup == TimeSpan.Zero && remote is null && !servedLoad)
            yield return $"{RunWarnings.Capitalized(_cluster.BrokerName)} was started for this plan and has not served any load yet: the first cells' latency will "
                + "be the cluster warming up, not their settings (at 2 000 msg/s, a new 3-broker cluster's first cell had p95 35 ms, its third 1 ms; a new "
                + "broker's first cell 160-360 ms in two runs of three). Give --cluster-warmup a length to warm it up first (the command line's default: 30s for one broker, 90s for several).";
    }

    internal static IEnumerable<string> PlanWarnings(BenchmarkPlan plan, IEnumerable<IBenchClient> clients)
    {
        bool consumes = plan.Scenarios.Any(s => s != ScenarioKind.Produce);
        foreach (var client in clients)
        {
            foreach (var warning in client.Warnings) yield return warning;
            // A reference measures what its tool reports: no latency, no prefetch, said once in its Details.
            if (client is IReferenceClient) continue;
            if (plan.UsePrefetch && consumes && !client.Capabilities.HasFlag(ClientCapabilities.Prefetch))
                yield return $"Client '{client.Name}' has no prefetch: UsePrefetch is off for it.";
            if (plan.Scenarios.Contains(ScenarioKind.Produce) && !client.Capabilities.HasFlag(ClientCapabilities.DeliveryLatency))
                yield return $"Client '{client.Name}' does not report per-record acknowledgements: produce runs record no send→ack latency for it.";
        }
    }
}
