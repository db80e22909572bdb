using System.Diagnostics;
using System.Globalization;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// The calibration study of the gate against history (<c>calibrate-history [TRIALS] [POOLED_TRIALS]</c>): a history of N
/// stored results of R runs each, every result at its own level (a between-result drift: another day, another broker
/// start), every run log-normal around its result's level with the run-to-run CV shown (and optionally slow outliers, one
/// run in ten 1.3–2× slower). The candidate is one more result, with a drift of its own, either from the same
/// distribution (A/A) or 5, 10 or 20 % slower. Two methods judge the same simulated runs: the history gate
/// (<see cref="HistoryGate"/>: one median per result, a 95 % prediction interval on the log scale) and the pooled robust
/// ratio (<see cref="Comparison"/>: Hodges–Lehmann over all N × R past runs against the candidate's R runs, 95 %
/// interval); each says "slower beyond P %" when its interval's lower end lies above 1 + P/100. Seeded: the same command
/// prints the same table.
/// </summary>
internal static class HistoryCalibration
{
    private static readonly CellKey Cell = new("simulated", ScenarioKind.Produce, 10_000, 100, "default", null);

    private static readonly double[] Slowdowns = [1.0, 1.05, 1.10, 1.20];

    private sealed record Row(VerdictCalibration.Noise Noise, double Drift, int Results, int Runs);

    private sealed record Counts(int Trials, int FalseAt0, int FalseAt10, int Caught5, int Caught10, int Caught20, int Caught20At10)
    {
        public string Format(string name)
        {
            string P(int count) => Trials == 0 ? "–" : string.Create(CultureInfo.InvariantCulture, $"{100.0 * count / Trials:0.0} %");
            return $"{name} | {P(FalseAt0)} | {P(FalseAt10)} | {P(Caught5)} | {P(Caught10)} | {P(Caught20)} | {P(Caught20At10)} |";
        }
    }

    // HashCode is randomized per process: the seed is built from the row itself, so every run prints the same table.
    private static int Seed(Row row) =>
        ((int)Math.Round(row.Noise.CoefficientOfVariation * 1000) * 1_000_000) + ((int)Math.Round(row.Noise.OutlierRate * 100) * 100_000)
        + ((int)Math.Round(row.Drift * 1000) * 1_000) + (row.Results * 10) + row.Runs;

    public static int Run(int trials, int pooledTrials)
    {
        VerdictCalibration.Noise[] noises =
        [
            new("CV 5 %", 0.05, 0), new("CV 10 %", 0.10, 0), new("CV 5 % + outliers", 0.05, 0.10),
        ];
        double[] drifts = [0, 0.03, 0.06];
        int[] results = [5, 10, 20];
        var rows = new List<Row>();
        foreach (var noise in noises)
            foreach (double drift in drifts)
                foreach (int n in results)
                    rows.Add(new Row(noise, drift, n, 5));
        // One block with 10 runs per result: do more runs per result help when results drift?
        foreach (double drift in drifts)
            foreach (int n in results)
                rows.Add(new Row(noises[1], drift, n, 10));

        var watch = Stopwatch.StartNew();
        var outcomes = new (Counts Gate, Counts Pooled)[rows.Count];
        Parallel.For(0, rows.Count, i => outcomes[i] = Measure(rows[i], trials, pooledTrials));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"A history of N results of R runs each; between-result drift log-normal with the SD shown, run-to-run noise log-normal with the CV shown (outliers: one run in ten 1.3–2× slower). "
            + $"{trials} trials per row for the history gate, {pooledTrials} for the pooled robust ratio (seeded; both judge the same simulated runs in the trials they share); "
            + $"95 % intervals; \"caught\" = slower beyond 0 % unless the column says 10 %. {watch.Elapsed.TotalSeconds:0} s."));
        Console.WriteLine();
        Console.WriteLine("| runs | drift | N | R | method | A/A slower >0 % | A/A slower >10 % | 5 % slower caught | 10 % slower caught | 20 % slower caught | 20 % slower caught at >10 % |");
        Console.WriteLine("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|");
        for (int i = 0; i < rows.Count; i++)
        {
            var row = rows[i];
            string prefix = string.Create(CultureInfo.InvariantCulture, $"| {row.Noise.Name} | {row.Drift * 100:0} % | {row.Results} | {row.Runs} | ");
            Console.WriteLine(prefix + outcomes[i].Gate.Format("history gate (medians)"));
            Console.WriteLine(prefix + outcomes[i].Pooled.Format("pooled robust ratio"));
        }
        return 0;
    }

    private static (Counts Gate, Counts Pooled) Measure(Row row, int trials, int pooledTrials)
    {
        var random = new Random(Seed(row));
        var gate = new int[6];
        var pooled = new int[6];
        var unitDrift = new VerdictCalibration.Noise("drift", row.Drift, 0);
        var medians = new double[row.Results];
        var pastRuns = new double[row.Results * row.Runs];
        var candidate = new double[row.Runs];
        for (int trial = 0; trial < trials; trial++)
        {
            for (int k = 0; k < row.Results; k++)
            {
                var runs = VerdictCalibration.Sample(random, row.Runs, Level(random, unitDrift), row.Noise);
                medians[k] = HistoryGate.Median(runs);
                runs.CopyTo(pastRuns, k * row.Runs);
            }
            // The candidate is one more result: a drift of its own, then the same runs scaled by each slowdown (common
            // random numbers: the columns differ only by the slowdown).
            var baseRuns = VerdictCalibration.Sample(random, row.Runs, Level(random, unitDrift), row.Noise);
            bool withPooled = trial < pooledTrials;
            for (int s = 0; s < Slowdowns.Length; s++)
            {
                for (int j = 0; j < row.Runs; j++) candidate[j] = baseRuns[j] * Slowdowns[s];
                var judgement = HistoryGate.Judge(Cell, medians, candidate);
                Tally(gate, s, judgement.IsSlowerBeyond(0), judgement.IsSlowerBeyond(10));
                if (withPooled)
                {
                    double low = Comparison.Of(candidate, pastRuns, MetricDirection.LowerIsBetter, 0.05).ShiftRatioLow;
                    Tally(pooled, s, double.IsFinite(low) && low > 1.0, double.IsFinite(low) && low > 1.10);
                }
            }
        }
        int p = Math.Min(trials, pooledTrials);
        return (new Counts(trials, gate[0], gate[1], gate[2], gate[3], gate[4], gate[5]),
            new Counts(p, pooled[0], pooled[1], pooled[2], pooled[3], pooled[4], pooled[5]));
    }

    // counts: [A/A >0, A/A >10, 5 % >0, 10 % >0, 20 % >0, 20 % >10].
    private static void Tally(int[] counts, int slowdown, bool beyond0, bool beyond10)
    {
        switch (slowdown)
        {
            case 0:
                if (beyond0) counts[0]++;
                if (beyond10) counts[1]++;
                break;
            case 1:
                if (beyond0) counts[2]++;
                break;
            case 2:
                if (beyond0) counts[3]++;
                break;
            default:
                if (beyond0) counts[4]++;
                if (beyond10) counts[5]++;
                break;
        }
    }

    /// <summary>A result's own level around the true level 1: log-normal with the drift as its CV (mean 1).</summary>
    private static double Level(Random random, VerdictCalibration.Noise drift) =>
        drift.CoefficientOfVariation == 0 ? 1.0 : VerdictCalibration.Sample(random, 1, 1.0, drift)[0];
}
