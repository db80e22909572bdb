namespace KafkaPerf.Statistics;

/// <summary>
/// Simulates comparisons with known answers to measure a verdict method's error rates: A/A (two identical clients)
/// and a candidate a known factor slower, with run times drawn from a seeded log-normal distribution with a given
/// coefficient of variation and, optionally, slow outliers (a run 1.3–2× slower, as a GC or a noisy neighbour makes it).
/// </summary>
/// <remarks>Used by the calibration study (<c>KafkaPerf.Benchmarks calibrate</c>) and by the tests that hold the verdict
/// method to its error rates.</remarks>
internal static class VerdictCalibration
{
    /// <summary>How noisy the simulated runs are.</summary>
    /// <param name="Name">A label for tables.</param>
    /// <param name="CoefficientOfVariation">The log-normal spread, e.g. 0.05.</param>
    /// <param name="OutlierRate">The share of runs made 1.3–2× slower.</param>
    public sealed record Noise(string Name, double CoefficientOfVariation, double OutlierRate);

    /// <summary>The share of trials with each outcome.</summary>
    /// <param name="OnPar">A/A judged on par.</param>
    /// <param name="FalseVerdict">A/A judged faster or slower.</param>
    /// <param name="Inconclusive">A/A judged inconclusive.</param>
    /// <param name="Caught">The slower candidate judged slower.</param>
    /// <param name="WrongWay">The slower candidate judged faster.</param>
    public sealed record Rates(double OnPar, double FalseVerdict, double Inconclusive, double Caught, double WrongWay);

    /// <summary>Runs <paramref name="trials"/> A/A and A/B comparisons of <paramref name="repeats"/> runs a side.</summary>
    /// <param name="decide">The verdict method (candidate runs, baseline runs; lower is better).</param>
    /// <param name="noise">The run-time distribution.</param>
    /// <param name="repeats">Runs per client.</param>
    /// <param name="trials">Comparisons of each kind.</param>
    /// <param name="seed">The random seed.</param>
    /// <param name="slowdown">The slower candidate's factor (1.10 = 10 % slower).</param>
    /// <returns>The rates.</returns>
    public static Rates Measure(Func<double[], double[], Verdict> decide, Noise noise, int repeats, int trials, int seed, double slowdown = 1.10)
    {
        var random = new Random(seed);
        int onPar = 0, falseVerdict = 0, inconclusive = 0, caught = 0, wrongWay = 0;
        for (int trial = 0; trial < trials; trial++)
        {
            var baseline = Sample(random, repeats, 1.0, noise);
            var same = Sample(random, repeats, 1.0, noise);
            var slower = Sample(random, repeats, slowdown, noise);
            switch (decide(same, baseline))
            {
                case Verdict.OnPar: onPar++; break;
                case Verdict.Inconclusive: inconclusive++; break;
                default: falseVerdict++; break;
            }
            var shifted = decide(slower, baseline);
            if (shifted == Verdict.Slower) caught++;
            if (shifted == Verdict.Faster) wrongWay++;
        }
        double n = trials;
        return new Rates(onPar / n, falseVerdict / n, inconclusive / n, caught / n, wrongWay / n);
    }

    /// <summary>n run times around <paramref name="scale"/>.</summary>
    public static double[] Sample(Random random, int n, double scale, Noise noise)
    {
        ArgumentNullException.ThrowIfNull(random);
        ArgumentNullException.ThrowIfNull(noise);
        double cv = noise.CoefficientOfVariation;
        double sigma = Math.Sqrt(Math.Log(1 + (cv * cv)));
        var samples = new double[n];
        for (int i = 0; i < n; i++)
        {
            // Box–Muller: a standard normal from two uniforms.
            double normal = Math.Sqrt(-2.0 * Math.Log(1.0 - random.NextDouble())) * Math.Cos(2.0 * Math.PI * random.NextDouble());
            double value = scale * Math.Exp((sigma * normal) - (sigma * sigma / 2));
            if (random.NextDouble() < noise.OutlierRate) value *= 1.3 + (0.7 * random.NextDouble());
            samples[i] = value;
        }
        return samples;
    }
}
