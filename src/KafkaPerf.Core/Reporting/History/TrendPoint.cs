namespace KafkaPerf.Reporting.History;

/// <summary>One cell of one stored result, as a trend shows it.</summary>
/// <param name="ResultId">The stored result's number.</param>
/// <param name="StartedAt">When its plan started.</param>
/// <param name="Label">Its label.</param>
/// <param name="Commit">Its commit.</param>
/// <param name="Cell">The cell.</param>
/// <param name="Runs">Its successful runs' values on the cell's metric.</param>
/// <param name="Judgement">How the gate judged it against the results before it, when there were enough.</param>
public sealed record TrendPoint(long ResultId, DateTimeOffset StartedAt, string? Label, string? Commit, CellKey Cell, IReadOnlyList<double> Runs, HistoryJudgement? Judgement)
{
    /// <summary>The median of the runs.</summary>
    public double Median => HistoryGate.Median(Runs);

    /// <summary>The interval of the median from the runs themselves: the order statistics that cover it with at least 95 %
    /// (binomial), or the lowest and highest run with fewer than 6 runs (93.8 % for 5).</summary>
    public (double Low, double High) Interval
    {
        get
        {
            var sorted = Runs.Order().ToArray();
            int n = sorted.Length;
            if (n == 0) return (double.NaN, double.NaN);
            int k = 0;
            // The largest k whose interval (x(k+1), x(n-k)) still covers the median with 1 - 2 P(X <= k) >= 95 %.
            while (k + 1 < n - k - 1 && 1 - (2 * BinomialTail(n, k + 2)) >= 0.95) k++;
            return (sorted[k], sorted[n - 1 - k]);
        }
    }

    /// <summary>Whether the gate found it slower than the results before it, beyond <paramref name="percent"/>.</summary>
    public bool Flagged(double percent) => Judgement?.IsSlowerBeyond(percent) == true;

    private static double BinomialTail(int n, int k)
    {
        // P(X <= k - 1) for X ~ Binomial(n, 1/2): the chance that fewer than k runs lie below the median.
        double sum = 0, term = Math.Pow(0.5, n);
        for (int i = 0; i < k; i++)
        {
            sum += term;
            term = term * (n - i) / (i + 1);
        }
        return sum;
    }
}
