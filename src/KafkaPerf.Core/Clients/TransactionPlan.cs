namespace KafkaPerf.Clients;

/// <summary>
/// Which transactions of a run are aborted (<c>--abort-ratio</c>): decided by each transaction's number alone, so that a
/// consumer knows which records must never reach it. A producer that sends ids 0, 1, 2, … in order puts the ids
/// [k·N, (k+1)·N) in its transaction k of N records.
/// </summary>
public static class TransactionPlan
{
    /// <summary>Whether transaction <paramref name="transaction"/> is aborted.</summary>
    /// <param name="transaction">Its number, from 0.</param>
    /// <param name="ratio">The share of transactions aborted, from 0 up to 1.</param>
    /// <returns><see langword="true"/> for about <paramref name="ratio"/> of all numbers.</returns>
    public static bool IsAborted(long transaction, double ratio) =>
        ratio > 0 && (RecordKeys.Mix(transaction ^ 0x5DEECE66DL) >> 11) * (1.0 / (1UL << 53)) < ratio;

    /// <summary>Whether the record with id <paramref name="id"/> belongs to an aborted transaction.</summary>
    /// <param name="id">The record's id.</param>
    /// <param name="records">Records per transaction.</param>
    /// <param name="ratio">The share of transactions aborted.</param>
    /// <returns>Whether a read-committed consumer must never see it.</returns>
    public static bool IsAbortedRecord(long id, int records, double ratio) => ratio > 0 && id >= 0 && IsAborted(id / records, ratio);

    /// <summary>How many of the records 0..<paramref name="count"/>-1 belong to aborted transactions.</summary>
    /// <param name="count">Records sent.</param>
    /// <param name="records">Records per transaction.</param>
    /// <param name="ratio">The share of transactions aborted.</param>
    /// <returns>The count.</returns>
    public static long AbortedRecords(long count, int records, double ratio)
    {
        if (ratio <= 0) return 0;
        long aborted = 0;
        for (long first = 0, k = 0; first < count; first += records, k++)
            if (IsAborted(k, ratio)) aborted += Math.Min(records, count - first);
        return aborted;
    }
}
