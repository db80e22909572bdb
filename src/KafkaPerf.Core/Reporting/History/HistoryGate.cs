using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting.History;

/// <summary>
/// A new result's cell judged against the same cell in the last comparable stored results. Each stored result counts
/// once, by the median of its runs: results from different days differ by more than runs within one result do (another
/// machine of the same class, another broker start), and a gate that pooled every past run would take that drift for a
/// slowdown. The candidate's median is set against the history's geometric mean of medians, with a 95 % prediction
/// interval (Student t, on the logarithm, from the spread of the history's medians): where the next result's median would
/// fall if nothing had changed. The candidate is slower beyond P % when its whole interval lies above 1 + P/100.
/// docs/BENCHMARKS.md ("The gate against history") measures its false alarms and its power.
/// </summary>
public static class HistoryGate
{
    /// <summary>The fewest comparable results a judgement needs: with two, a prediction interval is too wide to say anything.</summary>
    public const int MinimumHistory = 3;

    /// <summary>Judges a candidate's runs of one cell against the medians of the same cell in past results.</summary>
    /// <param name="cell">The cell.</param>
    /// <param name="history">Each comparable past result's median on the cell's metric, oldest first.</param>
    /// <param name="candidateRuns">The candidate's run values on the cell's metric.</param>
    /// <param name="confidence">The prediction interval's coverage, 0.95 by default.</param>
    /// <returns>The judgement; <see cref="HistoryJudgement.Judged"/> is false with fewer than <see cref="MinimumHistory"/> results.</returns>
    public static HistoryJudgement Judge(CellKey cell, IReadOnlyList<double> history, IReadOnlyList<double> candidateRuns, double confidence = 0.95)
    {
        ArgumentNullException.ThrowIfNull(cell);
        ArgumentNullException.ThrowIfNull(history);
        ArgumentNullException.ThrowIfNull(candidateRuns);
        var logs = history.Where(v => double.IsFinite(v) && v > 0).Select(v => Math.Log(v)).ToArray();
        var runs = candidateRuns.Where(v => double.IsFinite(v) && v > 0).ToArray();
        double candidate = runs.Length > 0 ? Median(runs) : double.NaN;
        if (logs.Length < MinimumHistory || runs.Length == 0)
            return new HistoryJudgement(cell, logs.Length, double.NaN, candidate, runs.Length, double.NaN, double.NaN, double.NaN, Judged: false);
        double mean = logs.Average();
        double sd = Math.Sqrt(logs.Sum(x => (x - mean) * (x - mean)) / (logs.Length - 1));
        double half = StudentT.Quantile(1 - ((1 - confidence) / 2), logs.Length - 1) * sd * Math.Sqrt(1 + (1.0 / logs.Length));
        double logRatio = Math.Log(candidate) - mean;
        return new HistoryJudgement(cell, logs.Length, Math.Exp(mean), candidate, runs.Length,
            Math.Exp(logRatio), Math.Exp(logRatio - half), Math.Exp(logRatio + half), Judged: true);
    }

    /// <summary>The median of some values (the mean of the middle two for an even count).</summary>
    /// <param name="values">At least one value.</param>
    /// <returns>The median.</returns>
    public static double Median(IReadOnlyList<double> values) => Summary.Of(values).Median;
}

