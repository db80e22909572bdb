using System.Diagnostics;
using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;
using KafkaPerf.Telemetry;

namespace KafkaPerf.Running;

/// <summary>The cluster warm-up (<see cref="BenchmarkPlan.ClusterWarmup"/>): load on the cluster before the first measured
/// run, through the runs of <see cref="RunExecutor"/>, none of it recorded as a run.</summary>
internal static class ClusterWarmup
{
    /// <summary>Records per round of the cluster warm-up: about 16 MiB of the first cell's size, 1 000 to 100 000 records.</summary>
    /// <param name="payloadBytes">The first cell's payload size.</param>
    /// <returns>The records each round produces and consumes.</returns>
    private static int ClusterWarmupRecords(int payloadBytes) => (int)Math.Clamp((16L << 20) / Math.Max(1, payloadBytes), 1_000, 100_000);

    /// <summary>
    /// Rounds of the consume scenario (a topic filled, then read) on topics of their own, the plan's clients in turn, until
    /// <see cref="BenchmarkPlan.ClusterWarmup"/> has passed and every client has had one: the brokers compile their produce, fetch and replication paths
    /// before the first measured run instead of during it. No round is recorded as a run; a failed round ends the warm-up
    /// with a warning and the plan goes on (its runs then say what is wrong).
    /// </summary>
    /// <returns>What the warm-up did, for the result.</returns>
    internal static async Task<string?> WarmUpClusterAsync(RunExecutor runs, BenchmarkPlan plan, PlanCell first, byte[] payload,
        Dictionary<string, IBenchClient> clients, List<string> warnings, IBenchmarkProgress progress, BrokerWatch broker,
        List<(IBenchClient Client, string Topic)> undeleted, CancellationToken runToken, CancellationToken cancellationToken)
    {
        var names = plan.Clients.Where(c => !plan.IsReference(c) && clients.ContainsKey(c)).ToList();
        if (names.Count == 0)
        {
            RunWarnings.Warn(warnings, progress, ["The cluster warm-up needs a client (--clients); reference tools alone do not warm it up."]);
            return null;
        }
        int records = ClusterWarmupRecords(first.PayloadBytes);
        var cell = first with { Scenario = ScenarioKind.Consume, MessageCount = records, Rate = null };
        long started = Stopwatch.GetTimestamp();
        int rounds = 0;
        string? failure = null;
        // Every client has a round, however short the warm-up (its JVM, its connections), then rounds in turn until it ends.
        while ((Stopwatch.GetElapsedTime(started) < plan.ClusterWarmup || rounds < names.Count) && broker.Exit is null)
        {
            cancellationToken.ThrowIfCancellationRequested();
            string name = names[rounds % names.Count];
            rounds++;
            var topic = TopicNaming.ForClusterWarmup(plan.TopicPrefix, name, rounds);
            var record = await runs.RunOneAsync(plan, new RunDescriptor(0, plan.TotalRuns, cell, name, 0, topic), clients[name], payload,
                warnings, progress, broker, undeleted, null, runToken, cancellationToken);
            // Its traffic reached the cluster: it counts on the telemetry's counters, as a warm-up run's does.
            KafkaPerfTelemetry.RunCompleted(null, record);
            progress.OnClusterWarmupRound(rounds, name, Stopwatch.GetElapsedTime(started), plan.ClusterWarmup);
            if (!record.Succeeded)
            {
                failure = $"{name}'s round {rounds} failed ({record.Error})";
                break;
            }
        }
        // A failed round's topic: deleted now (bounded by the stall timeout), not left for the first run to find.
        foreach (var (owner, leftover) in undeleted)
            await runs.DeleteTopicAsync(owner, leftover, plan.StallTimeout, warnings, progress, cancellationToken);
        undeleted.Clear();
        double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        string done = string.Create(CultureInfo.InvariantCulture,
            $"{rounds} round(s) of {records:N0} × {first.PayloadBytes:N0} B produced and consumed by {string.Join(", ", names.Take(rounds))}{(names.Count > 1 && rounds > 1 ? " in turn" : string.Empty)}, {seconds:0.0} s");
        if (failure is not null)
        {
            RunWarnings.Warn(warnings, progress, [$"The cluster warm-up stopped early: {failure}; the plan goes on."]);
            return $"{done}; stopped early: {failure}";
        }
        return done;
    }
}
