using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Plans;

/// <summary>The refusals of a plan with faults: those of the plan alone (the builder's) and those of its cluster (before
/// the first run), each one line that says what to do.</summary>
internal static class FaultChecks
{
    /// <summary>What is wrong with the plan's faults, whatever the cluster.</summary>
    internal static IEnumerable<string> PlanErrors(BenchmarkPlan plan)
    {
        if (plan.Faults.Count == 0)
        {
            if (plan.RecoveryGoal is not null) yield return "--slo on run sets the goal recovery from a fault is measured against: give --fault too, or use find-rate --slo.";
            yield break;
        }
        var faults = new List<FaultSpec>();
        foreach (var text in plan.Faults)
        {
            FaultSpec? fault = null;
            string? error = null;
            try
            {
                fault = FaultSpec.Parse(text);
            }
            catch (FormatException ex)
            {
                error = ex.Message;
            }
            if (error is not null) yield return error;
            else faults.Add(fault!);
        }
        if (!plan.IsRate)
        {
            yield return "--fault needs a run at a fixed rate (--rate 2000 --duration 30s): recovery is measured on response time from when each record was due, which a burst does not have.";
            yield break;
        }
        // The leader, the election and the first acknowledgement are those of partition 0: on several partitions, records
        // of the others would be acknowledged through the fault and hide it.
        if (plan.Cells().Any(c => Math.Max(c.Settings.Partitions ?? plan.Partitions, c.Settings.Consumers ?? 1) > 1))
            yield return "--fault watches the run's one partition (its leader, its election, its first acknowledgement): run on one partition (--partitions 1, one consumer).";
        if (plan.RecoveryGoal is { } goal)
        {
            string? goalError = null;
            try
            {
                var parsed = LatencyGoal.ParseList(goal);
                if (parsed.Count != 1 || !IntervalPercentile(parsed[0].Percentile).HasValue)
                    goalError = $"--slo '{goal}' on run must be one goal on p50, p99, p99.9 or max (the percentiles each interval keeps), e.g. p99<20ms.";
            }
            catch (PlanValidationException ex)
            {
                goalError = ex.Message;
            }
            if (goalError is not null) yield return goalError;
        }
        double shortest = plan.Cells().Select(c => plan.LoadOf(c)).Where(l => l is not null)
            .Select(l => l!.MeasuredRecords / l.RecordsPerSecond).DefaultIfEmpty(double.PositiveInfinity).Min();
        foreach (var fault in faults.Where(f => f.At.TotalSeconds >= shortest))
            yield return $"--fault {fault} fires {fault.At.TotalSeconds:0.###} s into the measured part, which lasts {shortest:0.###} s: fire it earlier or give a longer --duration.";
    }

    /// <summary>What the cluster cannot do of the plan's faults (a plan on workers is refused its faults before:
    /// <c>PlanChecks.WorkerErrors</c>).</summary>
    internal static IEnumerable<string> ClusterErrors(BenchmarkPlan plan, ClusterFacts cluster)
    {
        if (plan.Faults.Count == 0) yield break;
        if (cluster.RefuseFault is not { } refuse)
        {
            yield return "--fault needs a Kafka cluster that KafkaPerf reaches: run on the embedded cluster (--brokers 3) or --bootstrap with exec@10s:COMMAND.";
            yield break;
        }
        var faults = plan.Faults.Select(FaultSpec.Parse).ToList();
        bool refused = false;
        foreach (var fault in faults)
        {
            if (refuse(fault) is not { } refusal) continue;
            refused = true;
            yield return refusal;
        }
        if (refused) yield break;
        // A moment with a majority of the controllers down leaves the cluster unable to elect anything (a cluster of
        // unknown size is not judged).
        if (cluster.Brokers is not { } brokers) yield break;
        int controllers = Math.Min(brokers, 3);
        bool OnController(FaultSpec f) => f.Target != FaultTarget.Node || f.Node <= controllers;
        var down = faults.Where(f => f.TakesNodeDown && OnController(f)).ToList();
        foreach (var fault in down)
        {
            int atOnce = down.Count(other => other.At <= fault.At && (other.BackAt is not { } back || back > fault.At));
            if (atOnce > (controllers - 1) / 2)
            {
                yield return $"--fault {string.Join(" --fault ", down.Select(f => f.ToString()))} would have {atOnce} of the cluster's {controllers} controllers down at once "
                    + $"({fault.At.TotalSeconds:0.###} s in), and a KRaft cluster without a majority of its controllers cannot elect a leader: take down at most {(controllers - 1) / 2} at a time.";
                break;
            }
        }
    }

    /// <summary>Which of an interval's percentiles a goal's percentile is; <see langword="null"/> for others.</summary>
    internal static int? IntervalPercentile(double percentile) => percentile switch
    {
        50 => 50,
        99 => 99,
        99.9 => 999,
        100 => 100,
        _ => null,
    };
}
