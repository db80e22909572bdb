namespace KafkaPerf.Measurement;

/// <summary>
/// A roundtrip's consumer backlog (<c>--backlog</c>): the consumers started once the producers had this much acknowledged
/// and unread, then caught up while the producers went on. Seconds count from when the run's first record was due, as the
/// intervals' <c>startSeconds</c>.
/// </summary>
/// <param name="Records">The backlog in records (its bytes over the payload size).</param>
/// <param name="ReachedAtSeconds">When the producers had that many records acknowledged.</param>
/// <param name="ConsumersReadyAtSeconds">When every consumer then had its partitions.</param>
/// <param name="CaughtUpAtSeconds">The end of the first interval after it whose lag was under 100 ms of records (or under
/// 1 % of the backlog): the catch-up, to the granularity of the intervals; none when it never caught up.</param>
/// <param name="DrainRecordsPerSecond">Records consumed per second from the consumers' start to the catch-up.</param>
public sealed record BacklogRecord(long Records, double ReachedAtSeconds, double ConsumersReadyAtSeconds, double? CaughtUpAtSeconds, double? DrainRecordsPerSecond)
{
    /// <summary>How long catching up took: from the consumers' start to the catch-up.</summary>
    public double? CatchUpSeconds => CaughtUpAtSeconds - ConsumersReadyAtSeconds;

    /// <summary>The backlog's figures from a run's time series.</summary>
    /// <param name="records">The backlog in records.</param>
    /// <param name="reachedAt">Seconds from the first due record to the backlog.</param>
    /// <param name="readyAt">Seconds from the first due record to the consumers' assignment.</param>
    /// <param name="intervals">The run's intervals.</param>
    /// <param name="recordsPerSecond">The offered rate.</param>
    /// <returns>The record.</returns>
    public static BacklogRecord From(long records, double reachedAt, double readyAt, IReadOnlyList<IntervalRecord> intervals, double recordsPerSecond)
    {
        ArgumentNullException.ThrowIfNull(intervals);
        double threshold = Math.Max(recordsPerSecond * 0.1, records * 0.01);
        IntervalRecord? caughtUp = intervals.FirstOrDefault(i => i.StartSeconds + i.LengthSeconds > readyAt && i.Lag is { } lag && lag <= threshold);
        if (caughtUp is null) return new BacklogRecord(records, reachedAt, readyAt, null, null);
        double end = caughtUp.StartSeconds + caughtUp.LengthSeconds;
        // Consumed from the consumers' start to the catch-up: every interval that ends after the start (nothing was consumed
        // before it).
        long consumed = intervals.Where(i => i.StartSeconds + i.LengthSeconds > readyAt && i.Index <= caughtUp.Index).Sum(i => i.Consumed);
        double seconds = end - readyAt;
        return new BacklogRecord(records, reachedAt, readyAt, end, seconds > 0 ? consumed / seconds : null);
    }
}
