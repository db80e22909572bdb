using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>How much of a consume or roundtrip comparison is the wait before the first record rather than a rate: the
/// figures behind <see cref="CellComparison.StartUpShare"/> and <see cref="CellComparison.MostlyStartUp"/>.</summary>
internal static class StartUp
{
    /// <summary>The share of the difference in median elapsed time from which a verdict is called mostly start-up. At half,
    /// the difference in the wait for the first record is at least as large as every other difference of the two runs put
    /// together; and a wait is paid once per run, so a run with more records would show a ratio nearer the rate after the
    /// first record. librdkafka's consumer of a new group waits about 100 ms before its first fetch: in a 10 000-record
    /// consume of 0.12 s that is 85 % of it.</summary>
    public const double MostlyThreshold = 0.5;

    /// <summary>(A's median time to the first record − B's) / (A's median elapsed time − B's).</summary>
    /// <param name="candidate">A.</param>
    /// <param name="baseline">B.</param>
    /// <returns>The share; <see langword="null"/> when either has no time to the first record, or their medians are equal.</returns>
    public static double? Share(CellResult candidate, CellResult baseline)
    {
        if (candidate.FirstRecordSeconds is not { Count: > 0 } a || baseline.FirstRecordSeconds is not { Count: > 0 } b) return null;
        double elapsed = candidate.ElapsedSeconds.Median - baseline.ElapsedSeconds.Median;
        return double.IsFinite(elapsed) && elapsed != 0 ? (a.Median - b.Median) / elapsed : null;
    }

    /// <summary>Whether a verdict is mostly start-up: faster or slower, with at least <see cref="MostlyThreshold"/> of its
    /// difference the wait for the first record.</summary>
    /// <param name="verdict">The elapsed-time verdict.</param>
    /// <param name="share">Its <see cref="Share"/>.</param>
    /// <returns>Whether the verdict carries the caveat.</returns>
    public static bool Mostly(Verdict verdict, double? share) => verdict is Verdict.Faster or Verdict.Slower && share >= MostlyThreshold;
}
