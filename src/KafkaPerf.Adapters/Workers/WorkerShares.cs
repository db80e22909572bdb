using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Adapters.Workers;

/// <summary>How a cell is split among the workers that run it together: records, rate, producers and consumers.</summary>
/// <remarks>Counts are split as evenly as whole numbers allow, the first workers taking one more, so that the parts add
/// up to the cell exactly; every worker runs at least one producer and one consumer.</remarks>
public static class WorkerShares
{
    /// <summary>Worker <paramref name="index"/>'s part of <paramref name="total"/> among <paramref name="count"/>.</summary>
    /// <param name="total">What is split.</param>
    /// <param name="index">The worker, from 0.</param>
    /// <param name="count">Workers.</param>
    /// <returns>total / count, plus one for the first total % count workers.</returns>
    public static long Part(long total, int index, int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(total);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, count);
        return total / count + (index < total % count ? 1 : 0);
    }

    /// <summary>The cell worker <paramref name="index"/> runs: its records, its part of the rate, its producers and consumers.</summary>
    /// <param name="cell">The plan's cell.</param>
    /// <param name="index">The worker, from 0.</param>
    /// <param name="count">Workers running the cell.</param>
    /// <returns>The worker's cell; the cell itself for one worker.</returns>
    public static PlanCell Of(PlanCell cell, int index, int count)
    {
        ArgumentNullException.ThrowIfNull(cell);
        if (count == 1) return cell;
        long records = Math.Max(1, Part(cell.MessageCount, index, count));
        int producers = (int)Math.Max(1, Part(cell.Settings.Producers ?? 1, index, count));
        int consumers = (int)Math.Max(1, Part(cell.Settings.Consumers ?? 1, index, count));
        // The rate in proportion to the records, so that every worker's run lasts the cell's duration.
        double? rate = cell.Rate is { } r ? r * records / cell.MessageCount : null;
        return cell with
        {
            MessageCount = records,
            Rate = rate,
            Settings = cell.Settings with { Producers = producers, Consumers = consumers },
        };
    }
}
