using KafkaPerf.Reporting.Tables;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting;

/// <summary>How much of a consume or roundtrip comparison is the wait before the first record rather than a rate: the
/// figures behind <see cref="CellComparison.StartUpShare"/> and <see cref="CellComparison.StartUpCaveat"/>.</summary>
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

    /// <summary>The caveat a faster or slower verdict carries when at least <see cref="MostlyThreshold"/> of its
    /// difference is the wait for the first record: both waits, and the candidate's rate after it against the baseline's.</summary>
    /// <param name="verdict">The elapsed-time verdict.</param>
    /// <param name="share">Its <see cref="Share"/>.</param>
    /// <param name="candidate">A.</param>
    /// <param name="baseline">B.</param>
    /// <returns>The caveat; <see langword="null"/> when the verdict is neither faster nor slower, or the share is below the threshold.</returns>
    public static string? Caveat(Verdict verdict, double? share, CellResult candidate, CellResult baseline)
    {
        if (verdict is not (Verdict.Faster or Verdict.Slower) || share is not >= MostlyThreshold) return null;
        string a = candidate.Client, b = baseline.Client;
        string waits = $"mostly start-up: first record {a} {Milliseconds(candidate.FirstRecordSeconds)} ms, {b} {Milliseconds(baseline.FirstRecordSeconds)} ms";
        double? after = candidate.MessagesPerSecondAfterFirst?.Median / baseline.MessagesPerSecondAfterFirst?.Median;
        return after is { } ratio && double.IsFinite(ratio) ? $"{waits}; after it {a}'s msg/s {ReportFigures.Percent(ratio)} % of {b}'s" : waits;
    }

    private static string Milliseconds(Summary? seconds) => ReportFigures.Value(seconds?.Median * 1000, "0.0");
}
