using System.Text.Json;
using System.Xml.Linq;

namespace KafkaPerf.Cli.Tests;

/// <summary><c>--profile</c> end to end: the built tool, the embedded broker, Linux's perf sampling the tool's process.</summary>
public class ProfileTests
{
    [Fact]
    public async Task Run_ProfileWithTheLadder_FoldedStacksNameLibrdkafkaAndConfluentKafkaAndNothingIsLeftBehind()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, stderr) = await CliProcess.RunAsync(null,
                "run", "--clients", "librdkafka,confluent", "--references", "kcat", "--scenarios", "produce",
                "--messages", "200000", "--sizes", "100", "--repeat", "1", "--broker-heap", "256", "--profile", "--output", output.FullName);

            Assert.True(exit == 0, stderr);
            Assert.Contains("kafkaperf: perf is attached", stderr, StringComparison.Ordinal);

            // One profile per client of this process, none for kcat (a process of its own); its files beside the report.
            using var json = JsonDocument.Parse(File.ReadAllText(output.GetFiles("*.json").Single().FullName));
            var profiles = json.RootElement.GetProperty("profiles").EnumerateArray().ToDictionary(p => p.GetProperty("client").GetString()!);
            Assert.Equal(["confluent", "librdkafka"], profiles.Keys.Order());
            foreach (var (client, profile) in profiles)
            {
                Assert.True(profile.GetProperty("samples").GetInt64() > 50, $"{client}: {profile}");
                var shares = profile.GetProperty("layers").EnumerateArray().Sum(l => l.GetProperty("share").GetDouble());
                Assert.InRange(shares, 0.999, 1.001);
                var folded = File.ReadAllLines(Path.Combine(output.FullName, profile.GetProperty("foldedFile").GetString()!));
                // The hot path's own frames, named: librdkafka's in both, Confluent.Kafka's managed methods in confluent's.
                Assert.Contains(folded, line => line.Contains(";rd_kafka_", StringComparison.Ordinal));
                if (client == "confluent")
                {
                    Assert.Contains(folded, line => line.Contains("Confluent.Kafka.Producer`2", StringComparison.Ordinal));
                    Assert.Contains(profile.GetProperty("layers").EnumerateArray(), l => l.GetProperty("name").GetString() == "Confluent.Kafka");
                }
                Assert.All(folded, line => Assert.Matches(@"^\S+ \d+$", line));
                var svg = XDocument.Load(Path.Combine(output.FullName, profile.GetProperty("flameGraphFile").GetString()!));
                Assert.Equal("svg", svg.Root!.Name.LocalName);
            }

            // The report: the ladder from kcat (its own process's CPU) up to confluent, and where the CPU went.
            var markdown = File.ReadAllText(output.GetFiles("*.md").Single().FullName);
            Assert.Contains("## The .NET tax, step by step", markdown, StringComparison.Ordinal);
            Assert.Matches(@"\| kcat \| librdkafka from C[^|]*\| \d+ \| [\d.]+ \| – \| [1-9][\d.]*|\| kcat \| librdkafka from C[^|]*\| \d+ \| [\d.]+ \| – \| 0\.[\d]*[1-9]", markdown);
            Assert.Contains("| confluent | + Confluent.Kafka", markdown, StringComparison.Ordinal);
            Assert.Contains("## Where the CPU went (--profile)", markdown, StringComparison.Ordinal);

            // Nothing left behind: no perf, no perf map of the tool, no temporary folder.
            Assert.DoesNotContain(System.Diagnostics.Process.GetProcesses(), p => p.ProcessName is "perf");
            Assert.DoesNotContain(Directory.GetFiles("/tmp", "perf-*.map"), map => !File.Exists($"/proc/{Path.GetFileNameWithoutExtension(map)[5..]}/status"));
            Assert.Empty(Directory.GetDirectories(Path.GetTempPath(), "kafkaperf-profile-*"));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_ProfileWithoutPerfOnThePath_OneLineExit2AndNothingWritten()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));
        // Only the runtime's folder: no perf.
        var dotnetFolder = Path.GetDirectoryName(new FileInfo("/usr/bin/dotnet").ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? "/usr/share/dotnet/dotnet")!;
        var (exit, stdout, stderr) = await CliProcess.RunAsync(new Dictionary<string, string?> { ["PATH"] = dotnetFolder },
            "run", "--clients", "confluent", "--messages", "1000", "--profile", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("--profile needs Linux's perf, and none is on the PATH", line, StringComparison.Ordinal);
        Assert.Equal(string.Empty, stdout);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_ProfileWithWorkers_OneLineExit2()
    {
        var (exit, _, stderr) = await CliProcess.RunAsync(null, "run", "--clients", "confluent", "--messages", "1000", "--processes", "2", "--profile");

        Assert.Equal(2, exit);
        Assert.Contains("--profile samples this process, and with --workers or --processes the runs run in worker processes: drop one of them.", stderr, StringComparison.Ordinal);
    }
}
