namespace KafkaPerf.Statistics;

/// <summary>
/// How many times larger candidate A's typical value is than baseline B's, robustly: the Hodges–Lehmann estimate of the
/// shift between the logarithms of the two samples, with the distribution-free confidence interval that goes with the
/// Mann–Whitney test.
/// </summary>
/// <param name="Ratio">exp(median of all pairwise differences ln aᵢ − ln bⱼ): about A's median ÷ B's median, unmoved by a
/// few outlying runs.</param>
/// <param name="Low">Lower end of the confidence interval of <paramref name="Ratio"/>; NaN with too few runs.</param>
/// <param name="High">Upper end of the confidence interval of <paramref name="Ratio"/>; NaN with too few runs.</param>
/// <remarks>
/// <para>With n and m runs the n·m pairwise differences are sorted; the interval runs from the (k+1)-th smallest to the
/// (k+1)-th largest, k the largest u with P(U ≤ u) ≤ (1 − level)/2 under the Mann–Whitney null distribution: exact up
/// to 50 runs a side, then its normal approximation k = ⌊n·m/2 − z·√(n·m·(n+m+1)/12) − ½⌋. It assumes only that the runs are independent and that one
/// distribution is the other one scaled, which is how benchmark times behave: no normality, and a slow outlier moves it
/// no more than any other run. With fewer than 3 runs on either side, or a level the sample cannot reach (3 against 3
/// or 4 at 95 %), the interval is (NaN, NaN).</para>
/// <para>Why not the ratio of means: one slow run in ten (a GC, a noisy neighbour) inflates both the mean and the
/// spread, so the interval of the ratio of means gets wide and verdicts become "inconclusive" even for identical
/// clients (the calibration study in docs/BENCHMARKS.md).</para>
/// </remarks>
public readonly record struct ShiftEstimate(double Ratio, double Low, double High)
{
    /// <summary>Estimates the ratio of A to B with a two-sided confidence interval.</summary>
    /// <param name="a">Candidate samples; every one positive and finite.</param>
    /// <param name="b">Baseline samples; every one positive and finite.</param>
    /// <param name="confidence">Two-sided level, in (0, 1).</param>
    /// <returns>The estimate; all NaN when either side is empty.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="confidence"/> is not in (0, 1).</exception>
    /// <exception cref="ArgumentException">A sample is not positive and finite.</exception>
    public static ShiftEstimate Of(ReadOnlySpan<double> a, ReadOnlySpan<double> b, double confidence) => Of(a, b, [confidence])[0];

    /// <summary>The same estimate with an interval at each level, from one sort of the pairwise differences.</summary>
    /// <param name="a">Candidate samples; every one positive and finite.</param>
    /// <param name="b">Baseline samples; every one positive and finite.</param>
    /// <param name="confidences">Two-sided levels, each in (0, 1).</param>
    /// <returns>One estimate per level, in order.</returns>
    public static ShiftEstimate[] Of(ReadOnlySpan<double> a, ReadOnlySpan<double> b, ReadOnlySpan<double> confidences)
    {
        foreach (var confidence in confidences)
        {
            if (!(confidence > 0.0 && confidence < 1.0))
                throw new ArgumentOutOfRangeException(nameof(confidences), confidence, "The confidence must lie strictly between 0 and 1.");
        }
        var estimates = new ShiftEstimate[confidences.Length];
        if (a.Length == 0 || b.Length == 0)
        {
            Array.Fill(estimates, new ShiftEstimate(double.NaN, double.NaN, double.NaN));
            return estimates;
        }
        var differences = Differences(a, b);
        Array.Sort(differences);
        int count = differences.Length;
        double median = count % 2 == 1
            ? differences[count / 2]
            : (differences[(count / 2) - 1] + differences[count / 2]) / 2.0;
        double ratio = Math.Exp(median);
        for (int i = 0; i < confidences.Length; i++)
        {
            int cut = a.Length < 3 || b.Length < 3 ? -1 : CutCount(a.Length, b.Length, confidences[i]);
            estimates[i] = cut < 0
                ? new(ratio, double.NaN, double.NaN)
                : new(ratio, Math.Exp(differences[cut]), Math.Exp(differences[count - 1 - cut]));
        }
        return estimates;
    }

    /// <summary>How many of the sorted pairwise differences lie below the interval (and as many above it): the largest u
    /// with P(U ≤ u) ≤ (1 − confidence) / 2 under the Mann–Whitney null distribution, exact up to 50 runs a side, then
    /// its normal approximation with a continuity correction; −1 when even u = 0 is too likely.</summary>
    internal static int CutCount(int n, int m, double confidence)
    {
        double tail = (1.0 - confidence) / 2.0;
        if (n <= ExactLimit && m <= ExactLimit)
        {
            var cumulative = NullDistribution(n, m);
            int u = -1;
            while (u + 1 < cumulative.Length && cumulative[u + 1] <= tail) u++;
            return u;
        }
        double z = StandardNormalQuantile(1.0 - tail);
        double product = (double)n * m;
        return (int)Math.Floor((product / 2.0) - (z * Math.Sqrt(product * (n + m + 1) / 12.0)) - 0.5);
    }

    private const int ExactLimit = 50;

    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(int, int), double[]> s_distributions = new();

    /// <summary>P(U ≤ u) for u = 0 … n·m when both samples come from one distribution, by the recursion on the number of
    /// arrangements, f(n, m, u) = f(n − 1, m, u − m) + f(n, m − 1, u), in doubles (exact enough for a tail probability).</summary>
    private static double[] NullDistribution(int n, int m) => s_distributions.GetOrAdd((Math.Min(n, m), Math.Max(n, m)), static key =>
    {
        var (small, large) = key;
        // counts[j][u]: arrangements of i values of one sample and j of the other with U = u, built up over i.
        var previous = new double[large + 1][];
        for (int j = 0; j <= large; j++) previous[j] = [1.0];
        for (int i = 1; i <= small; i++)
        {
            var current = new double[large + 1][];
            current[0] = [1.0];
            for (int j = 1; j <= large; j++)
            {
                var row = new double[(i * j) + 1];
                var withoutI = previous[j];        // f(i − 1, j, u − j)
                var withoutJ = current[j - 1];     // f(i, j − 1, u)
                for (int u = 0; u < row.Length; u++)
                {
                    double value = 0;
                    if (u - j >= 0 && u - j < withoutI.Length) value += withoutI[u - j];
                    if (u < withoutJ.Length) value += withoutJ[u];
                    row[u] = value;
                }
                current[j] = row;
            }
            previous = current;
        }
        var counts = previous[large];
        double total = counts.Sum();
        var cumulative = new double[counts.Length];
        double running = 0;
        for (int u = 0; u < counts.Length; u++)
        {
            running += counts[u];
            cumulative[u] = running / total;
        }
        return cumulative;
    });

    private static double[] Differences(ReadOnlySpan<double> a, ReadOnlySpan<double> b)
    {
        var logB = new double[b.Length];
        for (int j = 0; j < b.Length; j++) logB[j] = Log(b[j]);
        var differences = new double[a.Length * b.Length];
        int k = 0;
        foreach (var x in a)
        {
            double logA = Log(x);
            foreach (var y in logB) differences[k++] = logA - y;
        }
        return differences;
    }

    private static double Log(double value) =>
        value > 0.0 && double.IsFinite(value)
            ? Math.Log(value)
            : throw new ArgumentException($"A sample of {value} is not a positive finite number.", nameof(value));

    /// <summary>The standard normal quantile, by bisection on Student's t with a very large number of degrees of freedom.</summary>
    internal static double StandardNormalQuantile(double p) => StudentT.Quantile(p, 1e9);
}
