using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Running;

/// <summary>After a failed run, waits for a cluster that does not answer, up to the stall timeout, before the plan goes on
/// (or ends).</summary>
internal static class ClusterWait
{
    /// <summary>One question to a cluster after a failed run.</summary>
    private static readonly TimeSpan ClusterProbeTimeout = TimeSpan.FromSeconds(2);

    /// <summary>An answer slower than this after a failed run is reported: the cluster was away.</summary>
    private static readonly TimeSpan SlowAnswer = TimeSpan.FromSeconds(1);

    /// <summary>The pause between questions to a cluster that does not answer.</summary>
    private static readonly TimeSpan ClusterRetry = TimeSpan.FromMilliseconds(500);

    /// <summary>Asks the cluster until it answers or the stall timeout has passed.</summary>
    /// <returns><see langword="null"/> when it answered; otherwise the line that ends the plan.</returns>
    internal static async Task<string?> AwaitClusterAsync(ClusterConnection connection, Func<TimeSpan, CancellationToken, Task<string?>> check,
        TimeSpan stallTimeout, int failedRun, List<string> warnings, IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        long since = Stopwatch.GetTimestamp();
        bool waiting = false;
        string? why = null;
        while (true)
        {
            var left = stallTimeout - Stopwatch.GetElapsedTime(since);
            if (left > TimeSpan.Zero)
            {
                long asked = Stopwatch.GetTimestamp();
                why = await check(left < ClusterProbeTimeout ? left : ClusterProbeTimeout, cancellationToken);
                // An answer that took its time is news too: the broker was away.
                waiting |= Stopwatch.GetElapsedTime(asked) > SlowAnswer;
                if (why is null)
                {
                    if (waiting) RunWarnings.Warn(warnings, progress, [$"{RunWarnings.Capitalized(connection.BrokerName)} at {connection.BootstrapServers} answers again after {Stopwatch.GetElapsedTime(since).TotalSeconds:0.#} s: the plan goes on (run {failedRun} is listed as failed)."]);
                    return null;
                }
            }
            left = stallTimeout - Stopwatch.GetElapsedTime(since);
            if (left <= TimeSpan.Zero)
                return $"{connection.BrokerName} at {connection.BootstrapServers} did not answer for {stallTimeout.TotalSeconds:0.#} s (--stall-timeout) after run {failedRun} failed ({why ?? "no answer"})";
            if (!waiting)
            {
                progress.OnWarning($"Run {failedRun} failed and {connection.BrokerName} at {connection.BootstrapServers} does not answer ({why}): waiting up to {stallTimeout.TotalSeconds:0.#} s for it.");
                waiting = true;
            }
            await Task.Delay(left < ClusterRetry ? left : ClusterRetry, cancellationToken);
        }
    }
}
