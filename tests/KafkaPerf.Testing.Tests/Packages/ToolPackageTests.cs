using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Cli.Tests;

/// <summary>The global tool as users get it: packed, installed from a local folder, run on its own (embedded broker,
/// Kafka's jars and librdkafka.redist's native files from inside the package).</summary>
public class ToolPackageTests
{
    [Fact]
    public async Task PackedTool_InstallsFromAFolderAndRunsClientsAndATinyRun()
    {
        var root = ExternalProcess.RepositoryRoot();
        var work = Directory.CreateTempSubdirectory("kafkaperf-tool-");
        try
        {
            var feed = Path.Combine(work.FullName, "feed");
            var tools = Path.Combine(work.FullName, "tools");
            var output = Path.Combine(work.FullName, "out");

            var pack = await RunAsync(root, "dotnet", "pack", Path.Combine(root, "src", "KafkaPerf.Cli"), "-c", "Release", "--no-build", "-o", feed, "-v", "q", "-nologo",
                // Its own intermediate .nuspec: the other test assemblies pack the same projects at the same time.
                $"-p:NuspecOutputPath={Path.Combine(work.FullName, "nuspec")}/");
            Assert.True(pack.Exit == 0, pack.Output);
            var package = Assert.Single(Directory.GetFiles(feed, "KafkaPerf.Cli.*.nupkg"));
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

            var install = await RunAsync(work.FullName, "dotnet", "tool", "install", "KafkaPerf.Cli", "--tool-path", tools, "--add-source", feed);
            Assert.True(install.Exit == 0, install.Output);
            var tool = Path.Combine(tools, "dotnet-kafkaperf");

            var clients = await RunAsync(work.FullName, tool, "clients");
            var run = await RunAsync(work.FullName, tool, "run", "--clients", "confluent,java", "--references", "kcat,kafka-tools", "--scenarios", "produce", "--messages", "100",
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
        finally
        {
            work.Delete(recursive: true);
        }
    }

    // The tool must stand on its own: nothing from this test process's environment points it at the build.
    private static readonly Dictionary<string, string?> Standalone = new() { ["KAFKAPERF_KAFKA_HOME"] = null, ["KAFKAPERF_LIBRDKAFKA"] = null };

    private static Task<(int Exit, string Output)> RunAsync(string directory, string file, params string[] args) =>
        ExternalProcess.RunAsync(directory, Standalone, file, args);
}
