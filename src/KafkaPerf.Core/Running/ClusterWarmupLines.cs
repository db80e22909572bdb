using KafkaPerf.Plans;

namespace KafkaPerf.Running;

/// <summary>Says how a cluster warm-up goes, a line every 10 s or so (rounds end every few seconds; 30-90 s of
/// warm-up would otherwise be silent, or a wall of lines).</summary>
/// <param name="writer">Where the lines go.</param>
public sealed class ClusterWarmupLines(TextWriter writer)
{
    private static readonly TimeSpan Every = TimeSpan.FromSeconds(10);
    private TimeSpan _last;

    /// <summary>A new warm-up starts.</summary>
    public void Reset() => _last = TimeSpan.Zero;

    /// <summary>A round ended: a line when 10 s have passed since the last one, none once the warm-up is over.</summary>
    /// <param name="plan">The plan warming up.</param>
    /// <param name="round">The round.</param>
    /// <param name="client">Its client.</param>
    /// <param name="elapsed">The warm-up's time so far.</param>
    public void OnRound(BenchmarkPlan plan, int round, string client, TimeSpan elapsed)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (elapsed - _last < Every || elapsed >= plan.ClusterWarmup) return;
        _last = elapsed;
        writer.WriteLine(plan.ClusterWarmupProgress(round, client, elapsed));
    }
}
