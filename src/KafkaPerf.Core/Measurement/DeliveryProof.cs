using System.Globalization;
using System.Text;

namespace KafkaPerf.Measurement;

/// <summary>
/// Decides what a read proved: a record is lost only when the read of its partition went past the offset at which it was
/// acknowledged without seeing it; when some partition's read stopped before its last acknowledged offset, the records
/// not seen are <em>not verified</em> - never counted lost, and never silently zero. No idle time decides that a read is
/// complete: its end is a known offset.
/// </summary>
/// <remarks>A pure function of what was recorded. It does not know which partition a missing record was on, so one
/// partition read short leaves every missing record not verified: the figure is then smaller in reach but never wrong.</remarks>
public static class DeliveryProof
{
    private const int PartitionsNamed = 3;

    /// <summary>Whether every partition's read reached its last acknowledged offset.</summary>
    /// <param name="acknowledged">What was acknowledged where.</param>
    /// <param name="read">How far the reads went.</param>
    /// <returns><see langword="true"/> when no read needs to go further to prove anything; never while some record was
    /// acknowledged without an offset (its partition's end is not known).</returns>
    public static bool ReadToTheEnd(AcknowledgedOffsets acknowledged, ReadPositions read)
    {
        ArgumentNullException.ThrowIfNull(acknowledged);
        ArgumentNullException.ThrowIfNull(read);
        if (acknowledged.WithoutOffset > 0) return false;
        for (int p = 0; p < acknowledged.Partitions; p++)
        {
            if (read.PositionOf(p) < acknowledged.EndOf(p)) return false;
        }
        return true;
    }

    /// <summary>Judges a finished read.</summary>
    /// <param name="missing">Acknowledged records the read did not see.</param>
    /// <param name="acknowledged">What was acknowledged where.</param>
    /// <param name="read">How far the reads went.</param>
    /// <param name="readSeconds">How long the read went on, for the reason.</param>
    /// <param name="stoppedBecause">Why the read ended before its end, when it did (e.g. <c>nothing new for 20 s</c>).</param>
    /// <returns>What it proved.</returns>
    public static ReadOutcome Judge(long missing, AcknowledgedOffsets acknowledged, ReadPositions read, double readSeconds, string? stoppedBecause = null)
    {
        ArgumentNullException.ThrowIfNull(acknowledged);
        ArgumentNullException.ThrowIfNull(read);
        if (missing <= 0) return ReadOutcome.Complete;
        if (acknowledged.WithoutOffset > 0)
        {
            return new ReadOutcome(0, missing, string.Create(CultureInfo.InvariantCulture,
                $"{missing} acknowledged records not read; {acknowledged.WithoutOffset} records were acknowledged without an offset (acks=0, or a client that reports none), so no read can prove them lost"));
        }
        var shortReads = new List<int>();
        for (int p = 0; p < acknowledged.Partitions; p++)
        {
            if (read.PositionOf(p) < acknowledged.EndOf(p)) shortReads.Add(p);
        }
        if (shortReads.Count == 0) return new ReadOutcome(missing, 0, null);

        var reason = new StringBuilder();
        reason.Append(CultureInfo.InvariantCulture, $"{missing} acknowledged records not read: ");
        if (stoppedBecause is not null) reason.Append(stoppedBecause).Append("; ");
        for (int i = 0; i < Math.Min(PartitionsNamed, shortReads.Count); i++)
        {
            int p = shortReads[i];
            if (i > 0) reason.Append(", ");
            // The last acknowledged offset, as a user reads a partition's records: "of 2 749" when offsets 0..2 749 were acknowledged.
            reason.Append(CultureInfo.InvariantCulture, $"read to offset {read.PositionOf(p)} of {acknowledged.EndOf(p) - 1} on partition {p}");
        }
        if (shortReads.Count > PartitionsNamed) reason.Append(CultureInfo.InvariantCulture, $" and {shortReads.Count - PartitionsNamed} more partitions");
        reason.Append(CultureInfo.InvariantCulture, $" in {readSeconds:0.#} s");
        if (read.Unknown > 0) reason.Append(CultureInfo.InvariantCulture, $" ({read.Unknown} records came without a position)");
        return new ReadOutcome(0, missing, reason.ToString());
    }
}
