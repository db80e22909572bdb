using System.Text.Json.Nodes;

namespace KafkaPerf.Cli.Tests;

// In CliTests' class: these redirect the process-wide console too.
public partial class CliTests
{
    [Fact]
    public async Task RunPlan_AResultsPlanRunAgain_GivesTheSameCells()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-plan-");
        try
        {
            var first = Path.Combine(output.FullName, "first");
            var again = Path.Combine(output.FullName, "again");
            var (exit1, _, err1) = await RunAsync("run", "--clients", "inmemory", "--scenarios", "produce,roundtrip", "--messages", "500", "--sizes", "10,20",
                "--repeat", "2", "--acks", "1,all", "--producers", "1,2", "--format", "json", "--quiet", "--output", first);
            var result = Assert.Single(Directory.GetFiles(first, "*.json"));

            var (exit2, _, err2) = await RunAsync("run", "--plan", result, "--format", "json", "--quiet", "--output", again);

            Assert.True(exit1 == 0, err1);
            Assert.True(exit2 == 0, err2);
            static JsonNode Cells(string file) => new JsonArray([.. JsonNode.Parse(File.ReadAllText(file))!["cells"]!.AsArray()
                .Select(c => (JsonNode)new JsonObject { ["client"] = c!["client"]!.DeepClone(), ["scenario"] = c["scenario"]!.DeepClone(), ["variant"] = c["variant"]!.DeepClone(),
                    ["messageCount"] = c["messageCount"]!.DeepClone(), ["payloadBytes"] = c["payloadBytes"]!.DeepClone(), ["runs"] = c["runs"]!.DeepClone() })]);
            var rerun = Assert.Single(Directory.GetFiles(again, "*.json"));
            Assert.Equal(Cells(result).ToJsonString(), Cells(rerun).ToJsonString());
            Assert.Equal(16, Cells(rerun).AsArray().Count);
            Assert.Equal(JsonNode.Parse(File.ReadAllText(result))!["plan"]!.ToJsonString(), JsonNode.Parse(File.ReadAllText(rerun))!["plan"]!.ToJsonString());
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData(new[] { "--clients", "inmemory" }, "--plan runs the plan saved in '{0}', and --clients would change it: leave it out, or leave --plan out.")]
    [InlineData(new[] { "--sizes", "5", "--repeat", "2" }, "--plan runs the plan saved in '{0}', and --sizes, --repeat would change it: leave them out, or leave --plan out.")]
    public async Task RunPlan_WithThePlansOwnOptions_OneLineExit2(string[] extra, string expected)
    {
        var file = Path.Combine(Path.GetTempPath(), $"kafkaperf-plan-{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(file, "{}");
        try
        {
            var (exit, _, err) = await RunAsync(["run", "--plan", file, .. extra]);

            Assert.Equal(2, exit);
            Assert.Equal($"kafkaperf: {string.Format(System.Globalization.CultureInfo.InvariantCulture, expected, file)}", err.TrimEnd());
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public async Task RunPlan_NotAPlan_OneLineExit2AndNothingWritten()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", "--plan", "/nonexistent/plan.json", "--output", output);

        Assert.Equal(2, exit);
        Assert.StartsWith("kafkaperf: The plan '/nonexistent/plan.json' cannot be read (", Assert.Single(err.TrimEnd().Split('\n')), StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Theory]
    [InlineData("--replication-factor", "4", "Replication factor 4 is more than the cluster's 3 broker(s)")]
    [InlineData("--min-insync-replicas", "4", "min.insync.replicas 4 is more than the topics' replication factor 3")]
    public async Task Run_AReplicationThreeBrokersCannotHold_RefusedBeforeAnyBrokerStarts(string option, string value, string expected)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", "--clients", "confluent", "--brokers", "3", option, value, "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(err.TrimEnd().Split('\n'));
        Assert.StartsWith($"kafkaperf: {expected}", line, StringComparison.Ordinal);
        // Nothing started: no "starting the embedded … cluster" line came before it.
        Assert.DoesNotContain("starting", err, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Theory]
    [InlineData("")]
    [InlineData("nohost")]
    public async Task Worker_ABootstrapThatIsNoAddress_OneLineExit2AtOnce(string bootstrap)
    {
        var (exit, _, err) = await RunAsync("worker", "--group", "g", "--bootstrap", bootstrap);

        Assert.Equal(2, exit);
        Assert.Equal($"kafkaperf: --bootstrap '{bootstrap}' is not host:port[,host:port…]: give the address of a broker of the cluster the workers meet on, e.g. --bootstrap localhost:9092.", err.TrimEnd());
    }

    [Fact]
    public async Task Run_ASettingThatHoldsASecret_IsInNoOutput()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-secret-");
        try
        {
            var (exit, stdout, err) = await RunAsync("run", "--clients", "inmemory", "--scenarios", "produce", "--messages", "100", "--sizes", "10", "--repeat", "1",
                "-X", "inmemory:sasl.password=TopSecret1",
                "-X", "inmemory:sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"TopSecret2\";",
                "-X", "inmemory:sasl.oauthbearer.client.secret=TopSecret3", "--output", output.FullName);

            Assert.True(exit == 0, err);
            Assert.DoesNotContain("TopSecret", stdout + err, StringComparison.Ordinal);
            var files = output.GetFiles("*", SearchOption.AllDirectories);
            Assert.True(files.Length >= 5, string.Join(", ", files.Select(f => f.Name)));
            Assert.All(files, f => Assert.DoesNotContain("TopSecret", File.ReadAllText(f.FullName), StringComparison.Ordinal));
            Assert.Contains("[hidden]", File.ReadAllText(output.GetFiles("*.json").Single().FullName), StringComparison.Ordinal);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_ASecretSettingWithWorkers_RefusedInOneLine()
    {
        var (exit, _, err) = await RunAsync("run", "--clients", "confluent", "--processes", "2", "-X", "confluent:sasl.password=TopSecret1", "--bootstrap", "localhost:9092");

        Assert.Equal(2, exit);
        Assert.Equal("kafkaperf: -X confluent:sasl.password holds a secret, and workers get the plan as a document that never carries one: give credentials with --sasl-credentials FILE on the coordinator and every worker.", err.TrimEnd());
    }
}
