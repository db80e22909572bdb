namespace KafkaPerf.Scenarios;

/// <summary>
/// A load at a rate: records sent on a uniform schedule - record <c>i</c> is due at <c>start + i / rate</c> - for a
/// warm-up (sent at the same rate, excluded from every figure) followed by the measured duration.
/// </summary>
/// <param name="RecordsPerSecond">The offered rate over all producers of a client, in records per second.</param>
/// <param name="Duration">How long the measured part lasts.</param>
/// <param name="Warmup">How long the warm-up before it lasts (zero: none).</param>
/// <param name="Interval">The length of one interval of the time series.</param>
public sealed record RateLoad(double RecordsPerSecond, TimeSpan Duration, TimeSpan Warmup, TimeSpan Interval)
{
    /// <summary>The default interval of the time series: one second.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromSeconds(1);

    /// <summary>Records sent in the warm-up.</summary>
    public long WarmupRecords => (long)Math.Round(RecordsPerSecond * Warmup.TotalSeconds);

    /// <summary>Records sent in the measured part.</summary>
    public long MeasuredRecords => Math.Max(1, (long)Math.Round(RecordsPerSecond * Duration.TotalSeconds));

    /// <summary>Every record of the run, warm-up included.</summary>
    public long TotalRecords => WarmupRecords + MeasuredRecords;
}
