namespace KafkaPerf.Statistics;

/// <summary>Student's t distribution: the cumulative distribution function and its inverse.</summary>
/// <remarks>
/// The CDF goes through the regularized incomplete beta function, evaluated with a continued fraction (modified
/// Lentz) and a Lanczos log-gamma; the quantile inverts it with a Newton iteration safeguarded by bisection.
/// Degrees of freedom need not be integers, because Welch–Satterthwaite produces fractional ones.
/// </remarks>
internal static class StudentT
{
    /// <summary>
    /// Above this many degrees of freedom the distribution is evaluated as if it had exactly this many: the
    /// difference from the normal limit is then below 1e-7 relative, while the log-gamma terms of the incomplete beta
    /// stay small enough not to lose precision to cancellation.
    /// </summary>
    private const double MaxDegreesOfFreedom = 1e7;

    private const double Epsilon = 1e-15;

    // Keeps Lentz's intermediate denominators away from exact zero.
    private const double Tiny = 1e-300;

    private const int MaxContinuedFractionTerms = 100_000;

    // g = 7, n = 9 coefficients of the Lanczos approximation; about 15 significant digits for positive arguments.
    private const double LanczosG = 7.0;

    private static readonly double[] LanczosCoefficients =
    [
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7,
    ];

    /// <summary>P(T ≤ <paramref name="t"/>) for Student's t with <paramref name="degreesOfFreedom"/>.</summary>
    /// <param name="t">The point at which to evaluate the CDF.</param>
    /// <param name="degreesOfFreedom">Positive, not necessarily an integer.</param>
    /// <returns>The probability, in [0, 1]; NaN when <paramref name="t"/> is NaN.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="degreesOfFreedom"/> is not positive.</exception>
    public static double Cdf(double t, double degreesOfFreedom)
    {
        ValidateDegreesOfFreedom(degreesOfFreedom);
        if (double.IsNaN(t))
        {
            return double.NaN;
        }

        // Working with the upper tail avoids 1 − (something close to 1) for the small tail of a negative t.
        var upperTail = UpperTail(Math.Abs(t), Math.Min(degreesOfFreedom, MaxDegreesOfFreedom));
        return t >= 0 ? 1.0 - upperTail : upperTail;
    }

    /// <summary>The value t such that P(T ≤ t) = <paramref name="p"/> (the inverse CDF).</summary>
    /// <param name="p">The probability, strictly between 0 and 1.</param>
    /// <param name="degreesOfFreedom">Positive, not necessarily an integer.</param>
    /// <returns>The quantile.</returns>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="p"/> is not in (0, 1) or <paramref name="degreesOfFreedom"/> is not positive.
    /// </exception>
    public static double Quantile(double p, double degreesOfFreedom)
    {
        if (!(p > 0.0 && p < 1.0))
        {
            throw new ArgumentOutOfRangeException(nameof(p), p, "The probability must lie strictly between 0 and 1.");
        }

        ValidateDegreesOfFreedom(degreesOfFreedom);
        var df = Math.Min(degreesOfFreedom, MaxDegreesOfFreedom);

        if (p == 0.5)
        {
            return 0.0;
        }

        // Solve on the upper tail by symmetry: q is small and exact, so no precision is lost to 1 − p.
        var q = p > 0.5 ? 1.0 - p : p;
        var magnitude = UpperTailQuantile(q, df);
        return p > 0.5 ? magnitude : -magnitude;
    }

    /// <summary>Finds t ≥ 0 with P(T &gt; t) = q, for q in (0, 0.5).</summary>
    private static double UpperTailQuantile(double q, double df)
    {
        // Bracket the root: the upper tail falls from 0.5 at t = 0 towards 0, so double until it drops below q.
        var low = 0.0;
        var high = 1.0;
        while (UpperTail(high, df) > q)
        {
            low = high;
            high *= 2.0;
            if (double.IsInfinity(high))
            {
                return double.PositiveInfinity;
            }
        }

        var t = (low + high) / 2.0;
        for (var iteration = 0; iteration < 200; iteration++)
        {
            var error = UpperTail(t, df) - q;
            if (error == 0.0)
            {
                return t;
            }

            // The tail decreases with t: a tail above q means the root lies further right.
            if (error > 0.0)
            {
                low = t;
            }
            else
            {
                high = t;
            }

            // d(tail)/dt = −density, so Newton's step is +error / density; fall back to bisection whenever the step
            // would leave the bracket (far in the tails the density is tiny and Newton overshoots).
            var next = t + (error / Density(t, df));
            if (!(next > low && next < high))
            {
                next = (low + high) / 2.0;
            }

            if (Math.Abs(next - t) <= 1e-15 * Math.Max(1.0, Math.Abs(next)) || high - low <= 1e-15 * high)
            {
                return next;
            }

            t = next;
        }

        return t;
    }

    /// <summary>P(T &gt; t) for t ≥ 0.</summary>
    private static double UpperTail(double t, double df)
    {
        if (double.IsPositiveInfinity(t))
        {
            return 0.0;
        }

        // P(T > t) = ½ · I_x(df/2, 1/2) with x = df / (df + t²); 1 − x is formed directly so that it keeps its
        // precision when t² is tiny compared with df.
        var denominator = df + (t * t);
        var x = df / denominator;
        var oneMinusX = t * t / denominator;
        return 0.5 * RegularizedIncompleteBeta(df / 2.0, 0.5, x, oneMinusX);
    }

    /// <summary>The probability density of Student's t at <paramref name="t"/>.</summary>
    private static double Density(double t, double df)
    {
        var logNormalizer = LogGamma((df + 1.0) / 2.0) - LogGamma(df / 2.0) - (0.5 * Math.Log(df * Math.PI));
        return Math.Exp(logNormalizer - ((df + 1.0) / 2.0 * LogOnePlus(t * t / df)));
    }

    /// <summary>I_x(a, b), given both x and 1 − x so that neither has to be recovered by subtraction.</summary>
    private static double RegularizedIncompleteBeta(double a, double b, double x, double oneMinusX)
    {
        if (x <= 0.0)
        {
            return 0.0;
        }

        if (oneMinusX <= 0.0)
        {
            return 1.0;
        }

        var logX = x > 0.5 ? LogOnePlus(-oneMinusX) : Math.Log(x);
        var logOneMinusX = oneMinusX > 0.5 ? LogOnePlus(-x) : Math.Log(oneMinusX);
        var logFront = (a * logX) + (b * logOneMinusX) - LogBeta(a, b);

        // The continued fraction converges fast only left of the distribution's bulk; on the other side use
        // I_x(a, b) = 1 − I_{1−x}(b, a).
        if (x < (a + 1.0) / (a + b + 2.0))
        {
            return Math.Exp(logFront) / (a * BetaContinuedFraction(a, b, x));
        }

        return 1.0 - (Math.Exp(logFront) / (b * BetaContinuedFraction(b, a, oneMinusX)));
    }

    /// <summary>
    /// Evaluates 1 + d₁/(1 + d₂/(1 + …)) for the incomplete beta (DLMF 8.17.22) with the modified Lentz method,
    /// where d₂ₘ = m(b − m)x / ((a + 2m − 1)(a + 2m)) and d₂ₘ₊₁ = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1)).
    /// </summary>
    private static double BetaContinuedFraction(double a, double b, double x)
    {
        var value = 1.0;
        var c = 1.0;
        var d = 0.0;

        for (var term = 1; term <= MaxContinuedFractionTerms; term++)
        {
            var m = term / 2;
            var coefficient = term % 2 == 0
                ? m * (b - m) * x / ((a + (2 * m) - 1) * (a + (2 * m)))
                : -(a + m) * (a + b + m) * x / ((a + (2 * m)) * (a + (2 * m) + 1));

            d = 1.0 + (coefficient * d);
            d = Math.Abs(d) < Tiny ? Tiny : d;
            c = 1.0 + (coefficient / c);
            c = Math.Abs(c) < Tiny ? Tiny : c;
            d = 1.0 / d;

            var delta = c * d;
            value *= delta;
            if (Math.Abs(delta - 1.0) < Epsilon)
            {
                break;
            }
        }

        return value;
    }

    private static double LogBeta(double a, double b) => LogGamma(a) + LogGamma(b) - LogGamma(a + b);

    /// <summary>ln Γ(x) for x &gt; 0, by the Lanczos approximation (with reflection below ½, where it is less accurate).</summary>
    private static double LogGamma(double x)
    {
        if (x < 0.5)
        {
            // Γ(x)Γ(1 − x) = π / sin(πx); x is positive here, so the sine is too.
            return Math.Log(Math.PI / Math.Sin(Math.PI * x)) - LogGamma(1.0 - x);
        }

        var z = x - 1.0;
        var series = LanczosCoefficients[0];
        for (var i = 1; i < LanczosCoefficients.Length; i++)
        {
            series += LanczosCoefficients[i] / (z + i);
        }

        var shifted = z + LanczosG + 0.5;
        return (0.5 * Math.Log(2.0 * Math.PI)) + ((z + 0.5) * Math.Log(shifted)) - shifted + Math.Log(series);
    }

    /// <summary>ln(1 + x), accurate for tiny x where forming 1 + x first would round most of x away.</summary>
    private static double LogOnePlus(double x)
    {
        var u = 1.0 + x;
        if (u == 1.0)
        {
            return x;
        }

        // ln(u) · x / (u − 1) cancels the rounding error made in forming u (Goldberg's correction).
        return Math.Log(u) * x / (u - 1.0);
    }

    private static void ValidateDegreesOfFreedom(double degreesOfFreedom)
    {
        if (!(degreesOfFreedom > 0.0))
        {
            throw new ArgumentOutOfRangeException(
                nameof(degreesOfFreedom), degreesOfFreedom, "The degrees of freedom must be positive.");
        }
    }
}
