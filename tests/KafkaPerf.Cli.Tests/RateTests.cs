using System.Text.Json;

namespace KafkaPerf.Cli.Tests;

/// <summary><c>run --rate</c> and <c>find-rate</c> as a user runs them (the in-memory client: no broker needed).</summary>
public class RateTests
{
    [Theory]
    [InlineData(new[] { "--rate", "0" }, "Rate 0 is not a positive number of records per second")]
    [InlineData(new[] { "--rate", "-10" }, "Rate -10 is not a positive number of records per second")]
    [InlineData(new[] { "--rate", "fast" }, "Rate 'fast' is not a number of records per second")]
    [InlineData(new[] { "--rate", "1000", "--duration", "0s" }, "The duration must be positive")]
    [InlineData(new[] { "--rate", "1000", "--duration", "60" }, "--duration '60' has no unit: write e.g. --duration 60s")]
    [InlineData(new[] { "--rate", "1000", "--duration", "10parsecs" }, "--duration '10parsecs' has an unknown unit 'parsecs'")]
    [InlineData(new[] { "--rate", "1000", "--warmup", "-1s" }, "The warm-up must not be negative")]
    [InlineData(new[] { "--rate", "1000", "--producers", "0" }, "producers 0 is out of range: use 1 to 64 per client")]
    [InlineData(new[] { "--rate", "1000", "--consumers", "99" }, "consumers 99 is out of range: use 1 to 64 per client")]
    [InlineData(new[] { "--rate", "1000", "--messages", "5000", "--duration", "5s" }, "Give either --duration or --messages with --rate, not both")]
    [InlineData(new[] { "--rate", "1000", "--scenarios", "consume" }, "A consume reads a filled topic as fast as it can, so a rate means nothing to it")]
    [InlineData(new[] { "--rate", "1000", "--references", "kcat" }, "References (kcat, kafka-tools) send bursts only")]
    [InlineData(new[] { "--duration", "5s" }, "A duration applies to runs at a rate")]
    [InlineData(new[] { "--warmup", "5s" }, "--warmup applies to runs at a rate")]
    [InlineData(new[] { "--interval", "2s" }, "--interval applies to load runs")]
    [InlineData(new[] { "--rate", "1000", "--interval", "1ms" }, "The interval must be at least 10 ms")]
    [InlineData(new[] { "--cluster-warmup", "-5s" }, "The cluster warm-up must not be negative: give e.g. --cluster-warmup 30s, or 0s for none.")]
    [InlineData(new[] { "--cluster-warmup", "30" }, "--cluster-warmup '30' has no unit: write e.g. --cluster-warmup 30s")]
    public async Task Run_BadLoadInput_OneLineAndExitCode2AndNoFiles(string[] args, string expected)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await CliProcess.RunAsync(null, ["run", "--clients", "inmemory", .. args, "--output", output]);

        Assert.Equal(2, exit);
        Assert.Contains(expected, err, StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_AtARate_WritesTheTimeSeriesBesideTheResults()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, err) = await CliProcess.RunAsync(null, "run", "--clients", "inmemory", "--rate", "5k", "--duration", "1s",
                "--warmup", "200ms", "--interval", "250ms", "--sizes", "100", "--repeat", "2", "--output", output.FullName);

            Assert.True(exit == 0, err);
            // The default scenarios at a rate, no warm-up run: 2 scenarios × 2 runs.
            Assert.Contains("kafkaperf: 4 runs", err, StringComparison.Ordinal);
            Assert.Contains("## Load", stdout, StringComparison.Ordinal);
            Assert.Contains("| roundtrip | defaults | inmemory | 100 | 5000 |", stdout, StringComparison.Ordinal);
            Assert.Single(output.GetFiles("*-intervals.csv"));
            Assert.Single(output.GetFiles("*-intervals.hlog"));
            Assert.Single(output.GetFiles("*-rate-roundtrip-100b-5000rps.svg"));
            Assert.Single(output.GetFiles("*-latency-time-roundtrip-100b-5000rps.svg"));
            // At a rate throughput is what the schedule says: no throughput chart.
            Assert.Empty(output.GetFiles("*-throughput-*.svg"));
            var intervals = File.ReadAllLines(output.GetFiles("*-intervals.csv").Single().FullName);
            // The warm-up as one interval, then four of 250 ms, per run.
            Assert.InRange(intervals.Length - 1, 4 * 5, 4 * 6);
            using var json = JsonDocument.Parse(File.ReadAllText(output.GetFiles("*.json").Single().FullName));
            var run = json.RootElement.GetProperty("runs")[0];
            Assert.Equal(5000, run.GetProperty("offeredRate").GetDouble());
            Assert.Equal(1000, run.GetProperty("warmupRecords").GetInt64());
            Assert.True(run.GetProperty("intervals").GetArrayLength() >= 5);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("p101<5ms", "The latency goal 'p101<5ms' has no percentile above 0 and at most 100")]
    [InlineData("p99<", "The latency goal 'p99<' has no time after '<'")]
    [InlineData("p99<5", "The latency goal 'p99<5' has a time without a unit")]
    public async Task FindRate_BadGoal_OneLineAndExitCode2(string goal, string expected)
    {
        var (exit, _, err) = await CliProcess.RunAsync(null, "find-rate", "--clients", "inmemory", "--slo", goal);

        Assert.Equal(2, exit);
        Assert.StartsWith("kafkaperf: " + expected, err.Trim(), StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
    }

    [Fact]
    public async Task FindRate_WithoutAGoal_SaysSo()
    {
        var (exit, _, err) = await CliProcess.RunAsync(null, "find-rate", "--clients", "inmemory");

        Assert.Equal(2, exit);
        Assert.Contains("--slo", err, StringComparison.Ordinal);
    }

    [Fact]
    public async Task FindRateHelp_ShowsItsOwnDefaults_NotRuns()
    {
        var (exit, stdout, _) = await CliProcess.RunAsync(null, "find-rate", "--help");

        Assert.Equal(0, exit);
        string Line(string option) => stdout.Split('\n').Single(l => l.TrimStart().StartsWith(option + " ", StringComparison.Ordinal));
        Assert.EndsWith("[default: produce]", Line("--scenarios").TrimEnd(), StringComparison.Ordinal);
        Assert.EndsWith("[default: 100]", Line("--sizes").TrimEnd(), StringComparison.Ordinal);
        Assert.EndsWith("[default: 1]", Line("--repeat").TrimEnd(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task FindRate_InMemory_ProbesUpToTheMaximumAndReportsTheSearch()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, err) = await CliProcess.RunAsync(null, "find-rate", "--slo", "p99<1s", "--clients", "inmemory", "--scenarios", "roundtrip",
                "--duration", "2s", "--warmup", "0s", "--start-rate", "1000", "--max-rate", "4000", "--output", output.FullName);

            Assert.True(exit == 0, err);
            // 1 000, 2 000, 4 000: every one held, up to the maximum. A probe holds when its last send is at most 1 % of its
            // duration late: 20 ms here (with 500 ms probes, a 5 ms hiccup of a busy CI machine failed one and the search
            // went on bisecting).
            Assert.True(err.Split('\n').Count(l => l.StartsWith("[probe", StringComparison.Ordinal)) == 3, err);
            Assert.Contains("## Highest sustainable rate", stdout, StringComparison.Ordinal);
            Assert.Contains("| roundtrip | defaults | inmemory | 100 | p99<1s | 4000 | – |", stdout, StringComparison.Ordinal);
            Assert.Contains("every rate held, up to 4 000 msg/s (the maximum probed)", stdout, StringComparison.Ordinal);
            Assert.Single(output.GetFiles("*-rate-curve-roundtrip-100b.svg"));
            Assert.Empty(output.GetFiles("*-throughput-*.svg"));
            using var json = JsonDocument.Parse(File.ReadAllText(output.GetFiles("*.json").Single().FullName));
            var search = json.RootElement.GetProperty("rateSearches")[0];
            Assert.Equal(4000, search.GetProperty("highestHeld").GetDouble());
            Assert.Equal(3, search.GetProperty("probes").GetArrayLength());
            // The plan says the runs that ran, and the curve marks where the search ended.
            Assert.Equal(json.RootElement.GetProperty("runs").GetArrayLength(), json.RootElement.GetProperty("plan").GetProperty("totalRuns").GetInt32());
            Assert.Contains("inmemory held 4,000 msg/s", File.ReadAllText(output.GetFiles("*-rate-curve-roundtrip-100b.svg").Single().FullName), StringComparison.Ordinal);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task FindRate_OnTheBrokerItStarts_WarmsItUpFirstByDefault()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, _, err) = await CliProcess.RunAsync(null, "find-rate", "--slo", "p99<5s", "--clients", "confluent", "--duration", "1s",
                "--warmup", "200ms", "--start-rate", "1000", "--max-rate", "2000", "--format", "json", "--output", output.FullName);

            Assert.True(exit == 0, err);
            Assert.Contains("kafkaperf: the broker this plan starts is warmed up first, for 30 s (one broker", err, StringComparison.Ordinal);
            Assert.Contains("kafkaperf: warming the cluster up for 30 s before the first probe", err, StringComparison.Ordinal);
            Assert.DoesNotContain("has not served any load yet", err, StringComparison.Ordinal);
            using var json = JsonDocument.Parse(File.ReadAllText(output.GetFiles("*.json").Single().FullName));
            Assert.Matches(@"^\d+ round\(s\) of .* produced and consumed by confluent", json.RootElement.GetProperty("clusterWarmup").GetString());
            // Two probes when 1 000 and 2 000 msg/s both hold; a CI machine under load once broke the 5 s goal and bisected.
            Assert.InRange(json.RootElement.GetProperty("rateSearches")[0].GetProperty("probes").GetArrayLength(), 2, 10);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_AtARateWithClusterWarmup0s_NoWarmupAndTheColdWarning()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, _, err) = await CliProcess.RunAsync(null, "run", "--clients", "confluent", "--scenarios", "produce", "--rate", "500",
                "--duration", "500ms", "--warmup", "0s", "--repeat", "1", "--cluster-warmup", "0s", "--format", "json", "--output", output.FullName);

            Assert.True(exit == 0, err);
            Assert.DoesNotContain("warmed up first", err, StringComparison.Ordinal);
            using var json = JsonDocument.Parse(File.ReadAllText(output.GetFiles("*.json").Single().FullName));
            Assert.Equal(JsonValueKind.Null, json.RootElement.TryGetProperty("clusterWarmup", out var warmup) ? warmup.ValueKind : JsonValueKind.Null);
            Assert.Contains(json.RootElement.GetProperty("warnings").EnumerateArray(), w => w.GetString()!.Contains("has not served any load yet", StringComparison.Ordinal));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
