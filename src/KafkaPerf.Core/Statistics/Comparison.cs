namespace KafkaPerf.Statistics;

/// <summary>How candidate A compares with baseline B on one metric, with a confidence interval and a verdict.</summary>
/// <param name="MaxRatioPercent">A's maximum / B's maximum × 100; NaN when B's is 0.</param>
/// <param name="MinRatioPercent">A's minimum / B's minimum × 100; NaN when B's is 0.</param>
/// <param name="MeanRatioPercent">A's mean / B's mean × 100 (for times, below 100 means A is better); NaN when B's is 0.</param>
/// <param name="StandardDeviationRatioPercent">A's standard deviation / B's × 100; NaN when B's is 0.</param>
/// <param name="CoefficientOfVariationRatioPercent">A's coefficient of variation / B's × 100; NaN when B's is 0 or NaN.</param>
/// <param name="MeanRatio">A's mean / B's mean as a plain ratio; NaN when B's mean is 0.</param>
/// <param name="MeanRatioLow">The lower end of the confidence interval for <paramref name="MeanRatio"/>.</param>
/// <param name="MeanRatioHigh">The upper end of the confidence interval for <paramref name="MeanRatio"/>.</param>
/// <param name="Confidence">The confidence level of the interval, for example 0.95.</param>
/// <param name="Tolerance">The relative difference below which the two count as on par, for example 0.05.</param>
/// <param name="Direction">Whether lower or higher values of the metric are better.</param>
/// <param name="Verdict">Whether A is faster, slower, on par or indistinguishable from B.</param>
/// <remarks>
/// <para>
/// The interval for the ratio of means R = m_A / m_B uses the delta method: with relative variance terms
/// v_A = s_A² / (n_A · m_A²) and v_B = s_B² / (n_B · m_B²), Var(R) ≈ R² · (v_A + v_B). The degrees of freedom follow
/// Welch–Satterthwaite on those terms, ν = (v_A + v_B)² / (v_A² / (n_A − 1) + v_B² / (n_B − 1)), and the interval is
/// R ± t₍₁₊c₎/₂,ν · R · √(v_A + v_B) with Student's t quantile. It assumes independent runs and means that are
/// roughly normal and well away from 0, which holds for repeated benchmark runs with a modest spread. With fewer than
/// two samples on either side there is no spread to estimate: the interval is (NaN, NaN) and the verdict
/// <see cref="Statistics.Verdict.Inconclusive"/>. When both sides have zero spread the interval collapses onto R.
/// </para>
/// <para>
/// The verdict, for a lower-is-better metric with tolerance τ and interval [lo, hi]: <see cref="Statistics.Verdict.Faster"/>
/// when hi &lt; 1 and R &lt; 1 − τ; <see cref="Statistics.Verdict.Slower"/> when lo &gt; 1 and R &gt; 1 + τ;
/// <see cref="Statistics.Verdict.OnPar"/> when 1 − τ ≤ lo and hi ≤ 1 + τ; otherwise
/// <see cref="Statistics.Verdict.Inconclusive"/>. For a higher-is-better metric Faster and Slower swap, so Faster
/// always means A is the better one. Requiring both a significant interval and a ratio beyond the tolerance keeps
/// tiny-but-consistent differences from being reported as wins.
/// </para>
/// </remarks>
public sealed record Comparison(
    double MaxRatioPercent,
    double MinRatioPercent,
    double MeanRatioPercent,
    double StandardDeviationRatioPercent,
    double CoefficientOfVariationRatioPercent,
    double MeanRatio,
    double MeanRatioLow,
    double MeanRatioHigh,
    double Confidence,
    double Tolerance,
    MetricDirection Direction,
    Verdict Verdict)
{
    /// <summary>The robust ratio of A to B (Hodges–Lehmann, <see cref="ShiftEstimate"/>) when the comparison was made from
    /// the runs themselves; NaN when only summaries were compared.</summary>
    public double ShiftRatio { get; init; } = double.NaN;

    /// <summary>Lower end of the confidence interval of <see cref="ShiftRatio"/> (at <see cref="Confidence"/>).</summary>
    public double ShiftRatioLow { get; init; } = double.NaN;

    /// <summary>Upper end of the confidence interval of <see cref="ShiftRatio"/> (at <see cref="Confidence"/>).</summary>
    public double ShiftRatioHigh { get; init; } = double.NaN;

    /// <summary>Which estimate the verdict rests on: <c>shift</c> (Hodges–Lehmann, from the runs) or <c>mean</c> (ratio of means, from summaries).</summary>
    public string VerdictBasis { get; init; } = "mean";

    /// <summary>Compares candidate runs <paramref name="a"/> with baseline runs <paramref name="b"/>: the seed's ratios of
    /// max, min, mean, SD and CV, and a verdict on the robust ratio (<see cref="ShiftEstimate"/>).</summary>
    /// <param name="a">The candidate's values, one per run; positive and finite.</param>
    /// <param name="b">The baseline's values, one per run; positive and finite.</param>
    /// <param name="direction">Whether lower or higher values of the metric are better.</param>
    /// <param name="tolerance">The relative difference treated as on par, in [0, 1); 0.05 means ±5 %.</param>
    /// <param name="confidence">The confidence level, in (0, 1).</param>
    /// <returns>The comparison.</returns>
    /// <remarks>The verdict: <see cref="Statistics.Verdict.Slower"/> or <see cref="Statistics.Verdict.Faster"/> when the
    /// interval at <paramref name="confidence"/> excludes 1 and the ratio lies beyond the tolerance;
    /// <see cref="Statistics.Verdict.OnPar"/> when the interval at 1 − 2·(1 − <paramref name="confidence"/>) (90 % for
    /// 95 %) lies inside the tolerance band, which is the two one-sided tests of equivalence at the same error rate;
    /// otherwise <see cref="Statistics.Verdict.Inconclusive"/>. The calibration study in docs/BENCHMARKS.md shows its
    /// error rates.</remarks>
    public static Comparison Of(
        IReadOnlyList<double> a, IReadOnlyList<double> b, MetricDirection direction, double tolerance = 0.05, double confidence = 0.95)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        var byMeans = Of(Summary.Of(a), Summary.Of(b), direction, tolerance, confidence);
        var estimates = ShiftEstimate.Of(a.ToArray(), b.ToArray(), [confidence, 1.0 - (2.0 * (1.0 - confidence))]);
        var (shift, equivalence) = (estimates[0], estimates[1]);
        return byMeans with
        {
            ShiftRatio = shift.Ratio,
            ShiftRatioLow = shift.Low,
            ShiftRatioHigh = shift.High,
            VerdictBasis = "shift",
            Verdict = DecideByShift(shift, equivalence, tolerance, direction),
        };
    }

    private static Verdict DecideByShift(ShiftEstimate shift, ShiftEstimate equivalence, double tolerance, MetricDirection direction)
    {
        if (double.IsNaN(shift.Low) || double.IsNaN(shift.High)) return Verdict.Inconclusive;
        var clearlyBelow = shift.High < 1.0 && shift.Ratio < 1.0 - tolerance;
        var clearlyAbove = shift.Low > 1.0 && shift.Ratio > 1.0 + tolerance;
        if (clearlyBelow) return direction == MetricDirection.LowerIsBetter ? Verdict.Faster : Verdict.Slower;
        if (clearlyAbove) return direction == MetricDirection.LowerIsBetter ? Verdict.Slower : Verdict.Faster;
        return !double.IsNaN(equivalence.Low) && 1.0 - tolerance <= equivalence.Low && equivalence.High <= 1.0 + tolerance
            ? Verdict.OnPar
            : Verdict.Inconclusive;
    }

    /// <summary>Compares candidate <paramref name="a"/> with baseline <paramref name="b"/>.</summary>
    /// <param name="a">The candidate's summary.</param>
    /// <param name="b">The baseline's summary.</param>
    /// <param name="direction">Whether lower or higher values of the metric are better.</param>
    /// <param name="tolerance">The relative difference treated as on par, in [0, 1); 0.05 means ±5 %.</param>
    /// <param name="confidence">The confidence level of the interval for the ratio of means, in (0, 1).</param>
    /// <returns>The comparison.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="a"/> or <paramref name="b"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="tolerance"/> is not in [0, 1) or <paramref name="confidence"/> is not in (0, 1).
    /// </exception>
    public static Comparison Of(
        Summary a, Summary b, MetricDirection direction, double tolerance = 0.05, double confidence = 0.95)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        if (!(tolerance >= 0.0 && tolerance < 1.0))
        {
            throw new ArgumentOutOfRangeException(nameof(tolerance), tolerance, "The tolerance must lie in [0, 1).");
        }

        if (!(confidence > 0.0 && confidence < 1.0))
        {
            throw new ArgumentOutOfRangeException(
                nameof(confidence), confidence, "The confidence must lie strictly between 0 and 1.");
        }

        if (!Enum.IsDefined(direction))
        {
            throw new ArgumentOutOfRangeException(nameof(direction), direction, "Unknown metric direction.");
        }

        var meanRatio = Ratio(a.Mean, b.Mean);
        var (low, high) = MeanRatioInterval(a, b, meanRatio, confidence);

        return new Comparison(
            MaxRatioPercent: Ratio(a.Max, b.Max) * 100.0,
            MinRatioPercent: Ratio(a.Min, b.Min) * 100.0,
            MeanRatioPercent: meanRatio * 100.0,
            StandardDeviationRatioPercent: Ratio(a.StandardDeviation, b.StandardDeviation) * 100.0,
            CoefficientOfVariationRatioPercent: Ratio(a.CoefficientOfVariation, b.CoefficientOfVariation) * 100.0,
            MeanRatio: meanRatio,
            MeanRatioLow: low,
            MeanRatioHigh: high,
            Confidence: confidence,
            Tolerance: tolerance,
            Direction: direction,
            Verdict: Decide(meanRatio, low, high, tolerance, direction));
    }

    // A zero denominator means "no meaningful ratio", not infinity: report NaN rather than throw or print ∞ %.
    private static double Ratio(double numerator, double denominator) =>
        denominator == 0.0 ? double.NaN : numerator / denominator;

    private static (double Low, double High) MeanRatioInterval(Summary a, Summary b, double meanRatio, double confidence)
    {
        if (a.Count < 2 || b.Count < 2 || !double.IsFinite(meanRatio) || a.Mean == 0.0)
        {
            return (double.NaN, double.NaN);
        }

        var relativeVarianceA = a.StandardDeviation * a.StandardDeviation / (a.Count * a.Mean * a.Mean);
        var relativeVarianceB = b.StandardDeviation * b.StandardDeviation / (b.Count * b.Mean * b.Mean);
        var relativeVariance = relativeVarianceA + relativeVarianceB;
        if (!double.IsFinite(relativeVariance))
        {
            return (double.NaN, double.NaN);
        }

        if (relativeVariance == 0.0)
        {
            // Both sides reproduced exactly; Welch's degrees of freedom would be 0/0, and the ratio is known exactly.
            return (meanRatio, meanRatio);
        }

        var degreesOfFreedom = relativeVariance * relativeVariance / (
            (relativeVarianceA * relativeVarianceA / (a.Count - 1)) +
            (relativeVarianceB * relativeVarianceB / (b.Count - 1)));
        var t = StudentT.Quantile(1.0 - ((1.0 - confidence) / 2.0), degreesOfFreedom);
        var halfWidth = t * Math.Abs(meanRatio) * Math.Sqrt(relativeVariance);
        return (meanRatio - halfWidth, meanRatio + halfWidth);
    }

    private static Verdict Decide(double ratio, double low, double high, double tolerance, MetricDirection direction)
    {
        if (double.IsNaN(ratio) || double.IsNaN(low) || double.IsNaN(high))
        {
            return Verdict.Inconclusive;
        }

        // "Below" and "above" are in terms of the ratio; the direction maps them to better or worse for A.
        var clearlyBelow = high < 1.0 && ratio < 1.0 - tolerance;
        var clearlyAbove = low > 1.0 && ratio > 1.0 + tolerance;
        if (clearlyBelow)
        {
            return direction == MetricDirection.LowerIsBetter ? Verdict.Faster : Verdict.Slower;
        }

        if (clearlyAbove)
        {
            return direction == MetricDirection.LowerIsBetter ? Verdict.Slower : Verdict.Faster;
        }

        return 1.0 - tolerance <= low && high <= 1.0 + tolerance ? Verdict.OnPar : Verdict.Inconclusive;
    }
}
