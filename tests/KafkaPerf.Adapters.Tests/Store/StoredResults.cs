using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Adapters.Tests.Store;

/// <summary>Results to store: a real result file of the repository, made into a history with known answers.</summary>
internal static class StoredResults
{
    public static string TemplatePath => Path.Combine(TestPaths.RepositoryRoot, "tests", "KafkaPerf.Core.Tests", "Reporting", "Expected", "result.json");

    public static BenchmarkResult Template => ResultJson.Read(TemplatePath);

    /// <summary>The template started at another time, every run's time drawn log-normal with <paramref name="cv"/> around
    /// its own, times <paramref name="factor"/>.</summary>
    public static BenchmarkResult Variant(int index, double factor = 1, double cv = 0.03, int seed = 1)
    {
        var random = new Random(seed * 7919 + index);
        var template = Template;
        return template with
        {
            StartedAtUtc = template.StartedAtUtc.AddHours(index),
            FinishedAtUtc = template.FinishedAtUtc.AddHours(index),
            Runs = [.. template.Runs.Select(r => r with { ElapsedSeconds = r.ElapsedSeconds * factor * Math.Exp(cv * Normal(random)) })],
        };
    }

    public static string Json(BenchmarkResult result) => ResultJson.Write(result);

    private static double Normal(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
