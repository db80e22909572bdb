using System.Text.Json;
using System.Text.Json.Nodes;

namespace KafkaPerf.Cli.Tests;

// In CliTests' class: it redirects the process-wide console too, so it must not run beside the other CLI tests.
public partial class CliTests
{
    /// <summary>The result files a fixed in-memory plan writes, with everything a clock or the machine decides set aside:
    /// a change that should not change behaviour (a refactoring) must leave this file as it is. Regenerate it on purpose
    /// with KAFKAPERF_WRITE_GOLDEN=1 when a change of the result is intended, and say so in the commit.</summary>
    [Theory]
    [InlineData("bursts", new[] { "--scenarios", "produce,consume,roundtrip", "--messages", "2000", "--sizes", "100,1000", "--repeat", "2", "--acks", "1,all" })]
    [InlineData("rate", new[] { "--rate", "2000", "--duration", "1s", "--warmup", "0s", "--sizes", "100", "--repeat", "1", "--producers", "1,2" })]
    public async Task Run_FixedInMemoryPlan_WritesTheSameResultAsBefore(string name, string[] planArguments)
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-golden-");
        try
        {
            string[] args = ["run", "--clients", "inmemory", .. planArguments, "--format", "json", "--quiet", "--output", output.FullName];

            var (exit, _, err) = await RunAsync(args);

            Assert.True(exit == 0, err);
            var json = JsonNode.Parse(File.ReadAllText(Assert.Single(output.GetFiles("*.json")).FullName))!;
            var actual = GoldenResult.Normalize(json).ToJsonString(new JsonSerializerOptions { WriteIndented = true }) + "\n";
            var expectedPath = Path.Combine(GoldenResult.Folder, $"{name}.json");
            if (Environment.GetEnvironmentVariable("KAFKAPERF_WRITE_GOLDEN") == "1") File.WriteAllText(expectedPath, actual);
            Assert.Equal(File.ReadAllText(expectedPath), actual);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}

/// <summary>A result's JSON without what a clock or the machine decides: every figure that is a time or a rate becomes 0,
/// timestamps and the environment a placeholder, a time series its shape; counts, names and structure stay.</summary>
internal static class GoldenResult
{
    /// <summary>The checked-in expected files (in the source tree, not the build output, so that they can be rewritten).</summary>
    public static string Folder { get; } = Path.Combine(FindRepositoryRoot(), "tests", "KafkaPerf.Cli.Tests", "Golden");

    // Whole numbers that a plan fixes, not a clock: kept as they are.
    private static readonly HashSet<string> Counts = new(StringComparer.Ordinal)
    {
        "schemaVersion", "sequence", "messageCount", "payloadBytes", "repetition", "sent", "delivered", "received", "lost",
        "duplicates", "unexpected", "payloadMismatches", "repeat", "seed", "partitions", "totalRuns", "runs", "failedRuns",
        "producers", "consumers", "warmupRecords", "latencySampleStride", "messageCounts", "payloadSizes", "rates", "offeredRate",
        "replicationFactor", "minInSyncReplicas", "tolerance", "confidence", "serviceTimeMissed", "records", "index",
    };

    public static JsonNode Normalize(JsonNode node, string? key = null)
    {
        switch (node)
        {
            case JsonObject obj:
                var copy = new JsonObject();
                foreach (var (name, value) in obj)
                {
                    copy[name] = name switch
                    {
                        "environment" => "<environment>",
                        // A time series' length and figures follow the clock: its shape is what is kept.
                        "intervals" when value is JsonArray series => new JsonArray([.. series.OfType<JsonObject>().SelectMany(i => i.Select(p => p.Key)).Distinct().Order(StringComparer.Ordinal).Select(k => (JsonNode)k)]),
                        "verdict" => "<verdict>",
                        _ => value is null ? null : Normalize(value, name),
                    };
                }
                return copy;
            case JsonArray array:
                return new JsonArray([.. array.Select(item => item is null ? null : Normalize(item, key))]);
            case JsonValue value when value.GetValueKind() == JsonValueKind.Number:
                return key is not null && Counts.Contains(key) ? value.DeepClone() : JsonValue.Create(0);
            case JsonValue value when value.GetValueKind() == JsonValueKind.String:
                var text = value.GetValue<string>();
                if (text == "NaN") return key is not null && Counts.Contains(key) ? value.DeepClone() : JsonValue.Create(0);
                return DateTimeOffset.TryParse(text, System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.None, out _) && text.Contains('T', StringComparison.Ordinal)
                    ? JsonValue.Create("<time>") : value.DeepClone();
            default:
                return node.DeepClone();
        }
    }

    private static string FindRepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "KafkaPerf.sln"))) return dir.FullName;
        throw new InvalidOperationException("The repository root (KafkaPerf.sln) is not above the test's folder.");
    }
}
