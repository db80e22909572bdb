using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Plans;

/// <summary>The refusals of a plan with membership events (<c>--fault join:consumer@10s</c> and the like), each one line
/// that says what to do.</summary>
internal static class GroupEventChecks
{
    /// <summary>What is wrong with the plan's membership events.</summary>
    internal static IEnumerable<string> PlanErrors(BenchmarkPlan plan)
    {
        if (plan.GroupEvents.Count == 0) yield break;
        var events = new List<GroupEventSpec>();
        foreach (var text in plan.GroupEvents)
        {
            GroupEventSpec? parsed = null;
            string? error = null;
            try
            {
                parsed = GroupEventSpec.Parse(text);
            }
            catch (FormatException ex)
            {
                error = ex.Message;
            }
            if (error is not null) yield return error;
            else events.Add(parsed!);
        }
        if (events.Count < plan.GroupEvents.Count) yield break;
        if (!plan.IsRate || plan.Scenarios.Any(s => s != ScenarioKind.Roundtrip))
        {
            yield return "A membership event needs consumers reading while records flow at a fixed rate: give --scenarios roundtrip --rate 5000 --duration 30s.";
            yield break;
        }
        if (plan.Faults.Count > 0)
            yield return "Membership events and node faults in one plan are not built yet: give one kind of --fault per plan.";
        if (events.Any(e => e.Kind is GroupEventKind.Leave or GroupEventKind.Crash) && plan.Cells().Any(c => (c.Settings.Consumers ?? 1) < 2))
            yield return "A leave or a crash needs another member to take over the partitions: give --consumers 2 or more.";
        double shortest = plan.Cells().Select(c => plan.LoadOf(c)).Where(l => l is not null)
            .Select(l => l!.MeasuredRecords / l.RecordsPerSecond).DefaultIfEmpty(double.PositiveInfinity).Min();
        foreach (var e in events.Where(e => e.At.TotalSeconds >= shortest))
            yield return $"--fault {e} fires {e.At.TotalSeconds:0.###} s into the measured part, which lasts {shortest:0.###} s: fire it earlier or give a longer --duration.";
    }
}
