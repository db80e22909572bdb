using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>The global tool as users get it: packed (by eng/pack.sh, into the collection's feed), installed from that
/// folder, run on its own (embedded broker, Kafka's jars and librdkafka.redist's native files from inside the
/// package). Here beside the other package tests, so the tool is packed once per test run, not twice.</summary>
public class ToolPackageTests(LocalFeedFixture feed)
{
    [Fact]
    public async Task PackedTool_InstallsFromAFolderAndRunsClientsAndATinyRun()
    {
        var work = feed.Folder("tool");
        var tools = Path.Combine(work, "tools");
        var output = Path.Combine(work, "out");

        var package = Assert.Single(Directory.GetFiles(feed.Feed, "KafkaPerf.Cli.*.nupkg"));
        using (var zip = System.IO.Compression.ZipFile.OpenRead(package))
        {
            Assert.Contains(zip.Entries, e => e.FullName.EndsWith("kafka/libs/kafka-clients-4.3.1.jar", StringComparison.Ordinal));
            Assert.Contains(zip.Entries, e => e.FullName.EndsWith("kafka/kafkaperf-java.jar", StringComparison.Ordinal));
            // librdkafka.redist's native files for the runtimes the tool supports, and no others.
            Assert.Contains(zip.Entries, e => e.FullName.EndsWith("runtimes/linux-x64/native/centos8-librdkafka.so", StringComparison.Ordinal));
            Assert.Contains(zip.Entries, e => e.FullName.EndsWith("runtimes/linux-arm64/native/librdkafka.so", StringComparison.Ordinal));
            Assert.DoesNotContain(zip.Entries, e => e.FullName.Contains("/runtimes/win-", StringComparison.Ordinal));
            Assert.Contains(zip.Entries, e => e.FullName == "README.md");
        }

        var install = await RunAsync(work, "dotnet", "tool", "install", "KafkaPerf.Cli", "--tool-path", tools, "--add-source", feed.Feed);
        Assert.True(install.Exit == 0, install.Output);
        var tool = Path.Combine(tools, "dotnet-kafkaperf");

        var clients = await RunAsync(work, tool, "clients");
        var run = await RunAsync(work, tool, "run", "--clients", "confluent,java", "--references", "kcat,kafka-tools", "--scenarios", "produce", "--messages", "100",
            "--sizes", "10", "--repeat", "1", "--broker-heap", "256", "--quiet", "--output", output);

        Assert.True(clients.Exit == 0, clients.Output);
        // Eight clients (four of them API-style variants) and two reference tools.
        Assert.Equal(11, clients.Output.Split('\n').Count(l => l.Trim() == "ready"));
        Assert.True(run.Exit == 0, run.Output);
        // Everything came from the installed package: jars, the Java helper and librdkafka.
        Assert.Contains(Path.Combine(tools, ".store"), run.Output, StringComparison.Ordinal);
        Assert.Equal([".csv", ".html", ".json", ".md"], Directory.GetFiles(output).Select(Path.GetExtension).Where(e => e != ".svg").Order());
        Assert.Single(Directory.GetFiles(output, "*-throughput-produce.svg"));
        // The references ran from the package too: kcat on its librdkafka, the perf tools from its jars.
        Assert.Contains("| produce | defaults | kcat | 100 | 10 | 1 | 0 |", run.Output, StringComparison.Ordinal);
        Assert.Contains("| produce | defaults | kafka-tools | 100 | 10 | 1 | 0 |", run.Output, StringComparison.Ordinal);
    }

    /// <summary>As a user would run it (<see cref="LocalFeedFixture.Environment"/>), and standing on its own: nothing of
    /// this test process's environment points it at the build.</summary>
    private async Task<(int Exit, string Output)> RunAsync(string directory, string file, params string[] args)
    {
        var environment = new Dictionary<string, string?>(feed.Environment) { ["KAFKAPERF_KAFKA_HOME"] = null, ["KAFKAPERF_LIBRDKAFKA"] = null };
        var run = await ExternalProcess.RunAsync(directory, environment, TimeSpan.FromMinutes(10), file, args);
        return (run.Exit, run.Output);
    }
}
