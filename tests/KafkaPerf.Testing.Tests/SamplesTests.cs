using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Testing.Tests;

/// <summary>The samples as a user would build them: KafkaPerf's packages from a local folder feed, no project
/// reference; the xUnit sample's tests must pass against the embedded broker and the console sample must run.</summary>
public class SamplesTests
{
    [Fact]
    public async Task Samples_FromTheLocalFeed_BuildAndPassOnTheEmbeddedBroker()
    {
        var root = ExternalProcess.RepositoryRoot();
        var work = Directory.CreateTempSubdirectory("kafkaperf-samples-");
        try
        {
            var feed = Path.Combine(work.FullName, "feed");
            foreach (var project in new[] { "KafkaPerf.Core", "KafkaPerf.Adapters", "KafkaPerf.Testing" })
            {
                var pack = await RunAsync(root, "dotnet", "pack", Path.Combine(root, "src", project), "-c", "Release", "--no-build", "-o", feed, "-v", "q", "-nologo");
                Assert.True(pack.Exit == 0, pack.Output);
            }
            // A copy outside the repository: only its own settings, and a nuget.config that adds the feed to the machine's sources.
            var samples = Path.Combine(work.FullName, "samples");
            CopyDirectory(Path.Combine(root, "samples"), samples);
            File.WriteAllText(Path.Combine(samples, "nuget.config"),
                $"<configuration><packageSources><add key=\"kafkaperf-local\" value=\"{feed}\" /></packageSources></configuration>");
            var environment = new Dictionary<string, string?> { ["NUGET_PACKAGES"] = Path.Combine(work.FullName, "packages") };

            var tests = await RunAsync(Path.Combine(samples, "PerformanceTests"), "dotnet", environment, "test", "-c", "Release", "-nologo");
            var console = await RunAsync(Path.Combine(samples, "ConsoleComparison"), "dotnet", environment, "run", "-c", "Release", "--", "2");

            Assert.True(tests.Exit == 0, tests.Output);
            Assert.Contains("Passed!", tests.Output, StringComparison.Ordinal);
            Assert.True(console.Exit == 0, console.Output);
            Assert.Contains("| produce | acks=0", console.Output, StringComparison.Ordinal);
            Assert.Contains("| java | Apache Kafka client 4.3.1", console.Output, StringComparison.Ordinal);
        }
        finally
        {
            work.Delete(recursive: true);
        }
    }

    private static void CopyDirectory(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(from, file);
            if (relative.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj")) continue;
            var target = Path.Combine(to, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    private static Task<(int Exit, string Output)> RunAsync(string directory, string file, params string[] args) =>
        ExternalProcess.RunAsync(directory, new Dictionary<string, string?>(), file, args);

    private static Task<(int Exit, string Output)> RunAsync(string directory, string file, Dictionary<string, string?> environment, params string[] args) =>
        ExternalProcess.RunAsync(directory, environment, file, args);
}
