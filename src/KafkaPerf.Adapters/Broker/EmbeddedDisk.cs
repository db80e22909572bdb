using System.Globalization;
using KafkaPerf.Plans;

namespace KafkaPerf.Adapters.Broker;

/// <summary>The embedded cluster's one disk against a plan's largest run: refused before the cluster starts.</summary>
internal static class EmbeddedDisk
{
    /// <summary>Why the embedded broker's disk cannot hold the plan's largest run, or null. A run's topic holds at least
    /// its records' payloads (warm-up records at a rate included) once per replica, and every node of the embedded
    /// cluster keeps its data on the one disk of the temporary folder; a run that fills it would fail hours into a plan.</summary>
    internal static string? Shortfall(BenchmarkPlan plan, EmbeddedKafkaBrokerOptions options)
    {
        int replicas = plan.ReplicationFactorFor(options.Brokers);
        var largest = plan.Cells()
            .Select(cell => (Cell: cell, Bytes: (cell.MessageCount + ((cell.Rate ?? 0) * plan.LoadWarmup.TotalSeconds)) * cell.PayloadBytes * replicas))
            .MaxBy(c => c.Bytes);
        if (largest.Cell is null) return null;
        string root = options.DataRoot ?? Path.GetTempPath();
        long free;
        try
        {
            free = new DriveInfo(Path.GetFullPath(root)).AvailableFreeSpace;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return null; // The broker's own start says what is wrong with the folder.
        }
        if (largest.Bytes <= free) return null;
        string Size(double bytes) => bytes >= 1e9 ? string.Create(CultureInfo.InvariantCulture, $"{bytes / 1e9:0.#} GB") : string.Create(CultureInfo.InvariantCulture, $"{bytes / 1e6:0.#} MB");
        return $"A run of {largest.Cell.MessageCount.ToString("N0", CultureInfo.InvariantCulture)} records of {largest.Cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)} B"
            + (largest.Cell.Rate is null ? string.Empty : " (plus its warm-up's)")
            + (replicas > 1 ? $" × {replicas.ToString(CultureInfo.InvariantCulture)} replicas" : string.Empty)
            + $" writes at least {Size(largest.Bytes)} to the embedded broker's disk, which has {Size(free)} free under {root.TrimEnd('/')}: "
            + (largest.Cell.Rate is null ? "use fewer --messages or smaller --sizes" : "use a lower --rate, a shorter --duration or smaller --sizes")
            + ", point TMPDIR at a larger disk, or benchmark your cluster with --bootstrap.";
    }
}
