using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running.Faults;

/// <summary>Heals the cluster after a run with faults, and checks it before the first: no run starts on a damaged
/// cluster.</summary>
internal static class FaultHealing
{
    /// <summary>How long healing may take at the least: a killed node starts again and its replicas catch up.</summary>
    private static readonly TimeSpan MinimumHealTime = TimeSpan.FromMinutes(2);

    /// <summary>Heals the cluster after <paramref name="record"/>'s run, then waits until it is ready again (every broker
    /// knows the run's topic, its groups' coordinator answers); the record gets the time both took.</summary>
    /// <param name="connection">The cluster, with its faults' healing and its readiness check.</param>
    /// <param name="plan">The plan (its faults and stall timeout).</param>
    /// <param name="record">The run just finished.</param>
    /// <param name="usesCluster">Whether the run's client uses the Kafka cluster (its topic is there to ask about).</param>
    /// <param name="cancellationToken">Ends the healing and the wait.</param>
    /// <returns>The record, and why the plan must stop when the cluster could not be healed.</returns>
    internal static async Task<(RunRecord Record, string? AbortReason)> HealAfterAsync(ClusterConnection connection, BenchmarkPlan plan, RunRecord record,
        bool usesCluster, CancellationToken cancellationToken)
    {
        if (connection.Faults is not { } injector) return (record, null);
        long started = Stopwatch.GetTimestamp();
        var damage = await injector.HealAsync(Timeout(plan), cancellationToken);
        string? notReady = null;
        // Whole is not yet ready for clients: a node started again must answer them with what the cluster knows, and the
        // groups' coordinator may have moved. Asked about the run's own topic and groups: the topic is deleted only once
        // the cluster is healed.
        if (damage is null && usesCluster && connection.Readiness is { } readiness)
            notReady = await RunReadiness.AskAsync(readiness, record.Topic, readsBack: true, plan.StallTimeout, cancellationToken);
        double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        record = record with { Faults = [.. record.Faults!.Select(f => f with { HealSeconds = seconds })] };
        if (damage is not null)
            return (record, $"the cluster could not be healed after run {record.Sequence} within {Timeout(plan).TotalSeconds:0} s ({damage}), and no run starts on a damaged cluster");
        return (record, notReady is null ? null
            : $"the cluster was healed after run {record.Sequence} but not ready for clients ({notReady}; --stall-timeout), and no run starts on a damaged cluster");
    }

    /// <summary>Checks (and heals) the cluster before the plan's first run with faults.</summary>
    /// <returns>Why the plan must not start; <see langword="null"/> when the cluster is whole.</returns>
    internal static async Task<string?> CheckBeforeAsync(ClusterConnection connection, BenchmarkPlan plan, CancellationToken cancellationToken)
    {
        if (connection.Faults is not { } injector) return null;
        var damage = await injector.HealAsync(Timeout(plan), cancellationToken);
        return damage is null ? null : $"the cluster was not whole before the first run with faults ({damage}) within {Timeout(plan).TotalSeconds:0} s";
    }

    private static TimeSpan Timeout(BenchmarkPlan plan) => plan.StallTimeout * 2 > MinimumHealTime ? plan.StallTimeout * 2 : MinimumHealTime;
}
