using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// The calibration study of KafkaPerf's verdicts (<c>calibrate [TRIALS]</c>): for each noise model and number of
/// repetitions, how often two identical clients get "on par", a false "faster"/"slower" or "inconclusive", and how
/// often a candidate 10 % slower is caught, for the ratio of means (the method before) and the robust ratio
/// (Hodges–Lehmann, the method now) side by side. Seeded: the same command prints the same table.
/// </summary>
internal static class Calibration
{
    private const double Tolerance = 0.05;
    private const double Confidence = 0.95;

    private static readonly (string Name, Func<double[], double[], Verdict> Decide)[] Methods =
    [
        ("ratio of means (Welch)", static (a, b) => Comparison.Of(Summary.Of(a), Summary.Of(b), MetricDirection.LowerIsBetter, Tolerance, Confidence).Verdict),
        ("robust ratio (Hodges–Lehmann)", static (a, b) => Comparison.Of(a, b, MetricDirection.LowerIsBetter, Tolerance, Confidence).Verdict),
    ];

    // HashCode is randomized per process: the seed is built from the row itself, so every run prints the same table.
    private static int Seed(VerdictCalibration.Noise noise, int repeats) =>
        (int)Math.Round(noise.CoefficientOfVariation * 1000) * 100_000 + (int)Math.Round(noise.OutlierRate * 100) * 1_000 + repeats;

    public static int Run(int trials)
    {
        VerdictCalibration.Noise[] noises =
        [
            new("CV 2 %", 0.02, 0), new("CV 5 %", 0.05, 0), new("CV 7 %", 0.07, 0), new("CV 10 %", 0.10, 0), new("CV 20 %", 0.20, 0),
            new("CV 5 % + outliers", 0.05, 0.10), new("CV 10 % + outliers", 0.10, 0.10),
        ];
        int[] repeats = [5, 10, 20, 30, 50];
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Verdicts over {trials} simulated comparisons per row (seeded); tolerance ±{Tolerance * 100:0} %, confidence {Confidence * 100:0} %; outliers: one run in ten 1.3–2× slower."));
        Console.WriteLine();
        Console.WriteLine("| noise | repeats | method | A/A on par | A/A false verdict | A/A inconclusive | 10 % slower caught | 10 % slower called faster |");
        Console.WriteLine("|---|---:|---|---:|---:|---:|---:|---:|");
        foreach (var noise in noises)
        {
            foreach (int n in repeats)
            {
                foreach (var (name, decide) in Methods)
                {
                    // The same seed for both methods: they judge the same simulated runs.
                    var r = VerdictCalibration.Measure(decide, noise, n, trials, Seed(noise, n));
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                        $"| {noise.Name} | {n} | {name} | {r.OnPar:P1} | {r.FalseVerdict:P1} | {r.Inconclusive:P1} | {r.Caught:P1} | {r.WrongWay:P1} |"));
                }
            }
        }
        return 0;
    }

    /// <summary>
    /// <c>calibrate-inmemory [TRIALS] [REPEATS]</c>: the same question on real runs of this machine. Three in-memory
    /// clients in one plan (balanced order, a warm-up each): <c>a</c> and <c>b</c> with the same 10 µs busy-wait per send,
    /// <c>c</c> with 11 µs, so that <c>b</c> vs <c>a</c> is an A/A comparison and <c>c</c> is about 10 % slower (the
    /// clock's granularity here is coarser than 1 µs). Each trial is one whole plan of 1 000-message produce runs; the
    /// verdicts are the runner's own.
    /// </summary>
    public static int RunInMemory(int trials, int repeats)
    {
        var registry = new ClientRegistry(
        [
            new InMemoryClientFactory(new InMemoryClientOptions { Name = "a", SendDelay = TimeSpan.FromTicks(100) }),
            new InMemoryClientFactory(new InMemoryClientOptions { Name = "b", SendDelay = TimeSpan.FromTicks(100) }),
            new InMemoryClientFactory(new InMemoryClientOptions { Name = "c", SendDelay = TimeSpan.FromTicks(110) }),
        ]);
        var counts = new Dictionary<(string, Verdict), int>();
        var cvs = new List<double>();
        var ratios = new List<double>();
        for (int trial = 0; trial < trials; trial++)
        {
            var plan = new BenchmarkPlanBuilder().Clients("a", "b", "c").Scenarios(ScenarioKind.Produce)
                .MessageCounts(1_000).PayloadSizes(100).Repeat(repeats).Build();
            var result = new BenchmarkRunner(registry, ClusterConnection.None).RunAsync(plan).AsTask().GetAwaiter().GetResult();
            foreach (var c in result.Comparisons)
            {
                var key = (c.Candidate, c.ElapsedSeconds.Verdict);
                counts[key] = counts.GetValueOrDefault(key) + 1;
                if (c.Candidate == "c") ratios.Add(c.ElapsedSeconds.ShiftRatio);
            }
            cvs.AddRange(result.Cells.Select(c => c.ElapsedSeconds.CoefficientOfVariation));
        }
        string Share(string client, Verdict verdict) =>
            string.Create(CultureInfo.InvariantCulture, $"{100.0 * counts.GetValueOrDefault((client, verdict)) / trials:0.0} %");
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{trials} plans of {repeats} repetitions; run-to-run CV median {Median(cvs) * 100:0.0} % (range {cvs.Min() * 100:0.0}–{cvs.Max() * 100:0.0} %); c/a robust ratio median {Median(ratios) * 100:0.0} %."));
        Console.WriteLine();
        Console.WriteLine("| comparison | on par | faster | slower | inconclusive |");
        Console.WriteLine("|---|---:|---:|---:|---:|");
        Console.WriteLine($"| b vs a (identical) | {Share("b", Verdict.OnPar)} | {Share("b", Verdict.Faster)} | {Share("b", Verdict.Slower)} | {Share("b", Verdict.Inconclusive)} |");
        Console.WriteLine($"| c vs a (11 µs per send against 10 µs) | {Share("c", Verdict.OnPar)} | {Share("c", Verdict.Faster)} | {Share("c", Verdict.Slower)} | {Share("c", Verdict.Inconclusive)} |");
        return 0;
    }

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }
}
