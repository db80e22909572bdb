using System.Diagnostics;
using System.Text.RegularExpressions;

namespace KafkaPerf.Cli.Tests;

/// <summary>The tool as a separate process: the embedded broker never outlives it, and every missing prerequisite
/// is one line with exit code 2.</summary>
public partial class ProcessTests
{
    [Fact]
    public async Task Run_LibrdkafkaVariableNamesNoLibrary_OneLineExit2AndNothingWritten()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, stderr) = await CliProcess.RunAsync(
            new Dictionary<string, string?> { ["KAFKAPERF_LIBRDKAFKA"] = "/nonexistent/librdkafka.so.1" }, "run", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(Lines(stderr));
        Assert.StartsWith("kafkaperf: Client 'confluent' cannot run here: KAFKAPERF_LIBRDKAFKA is '/nonexistent/librdkafka.so.1', which could not be loaded", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_JavaWithoutAlternateStackCheckAndNoRestart_OneLineSaysHowToSetItExit2()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, stderr) = await CliProcess.RunAsync(
            new Dictionary<string, string?> { ["DOTNET_EnableAlternateStackCheck"] = null, ["KAFKAPERF_NO_RESTART"] = "1" },
            "run", "--clients", "confluent,java", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(Lines(stderr));
        Assert.StartsWith("kafkaperf: Client 'java' cannot run here: DOTNET_EnableAlternateStackCheck=1 must be set when a process that hosts the JVM starts", line, StringComparison.Ordinal);
        Assert.Contains("export DOTNET_EnableAlternateStackCheck=1", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_JvmVariableNamesMissingFile_OneLineExit2()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, stderr) = await CliProcess.RunAsync(
            new Dictionary<string, string?> { ["KAFKAPERF_JVM"] = "/nonexistent/libjvm.so" }, "run", "--clients", "java-batched", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(Lines(stderr));
        Assert.Equal("kafkaperf: Client 'java-batched' cannot run here: KAFKAPERF_JVM is '/nonexistent/libjvm.so', but that file does not exist: point it at a libjvm.so (e.g. $JAVA_HOME/lib/server/libjvm.so), or unset it.", line);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_KafkaHomeFlag_BrokerAndJavaClientRunFromThatDistribution()
    {
        var home = Directory.CreateTempSubdirectory("kafkaperf-home-");
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            // A "distribution" whose libs/ are the fetched jars, under another path.
            Directory.CreateSymbolicLink(Path.Combine(home.FullName, "libs"), Path.Combine(AppContext.BaseDirectory, "kafka", "libs"));

            var (exit, stdout, stderr) = await CliProcess.RunAsync(null, "run", "--kafka-home", home.FullName, "--clients", "java",
                "--scenarios", "produce", "--messages", "100", "--sizes", "10", "--repeat", "1", "--broker-heap", "256", "--output", output.FullName);

            Assert.True(exit == 0, stderr);
            Assert.Contains($"jars from KAFKAPERF_KAFKA_HOME ({home.FullName})", stderr, StringComparison.Ordinal);
            Assert.Contains($"{home.FullName}/libs (KAFKAPERF_KAFKA_HOME", stdout, StringComparison.Ordinal);
        }
        finally
        {
            home.Delete(recursive: true);
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_ConfigurationFileThenVariablesThenFlags_EachOverridesTheOneBefore()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-config-");
        try
        {
            var output = Path.Combine(folder.FullName, "out");
            File.WriteAllText(Path.Combine(folder.FullName, "kafkaperf.json"), $$"""
                { "run": { "clients": "inmemory", "scenarios": ["produce"], "messages": 100, "sizes": "10", "repeat": 2, "quiet": true, "format": "json", "output": "{{output}}" } }
                """);
            // An underscore in a variable stands for the option's dash.
            var variable = new Dictionary<string, string?> { ["KAFKAPERF_RUN__REPEAT"] = "3", ["KAFKAPERF_RUN__TOPIC_PREFIX"] = "from-variable" };

            var fromFile = await CliProcess.RunInAsync(folder.FullName, null, "run");
            var fromVariable = await CliProcess.RunInAsync(folder.FullName, variable, "run");
            var fromFlag = await CliProcess.RunInAsync(folder.FullName, variable, "run", "--repeat", "4");
            File.WriteAllText(Path.Combine(folder.FullName, "kafkaperf.json"), "{ \"run\": { \"repaet\": 5 } }");
            var typo = await CliProcess.RunInAsync(folder.FullName, null, "run");

            Assert.Equal((0, 0, 0), (fromFile.Exit, fromVariable.Exit, fromFlag.Exit));
            var plans = Directory.GetFiles(output, "*.json").OrderBy(File.GetLastWriteTimeUtc).Select(f => KafkaPerf.Reporting.Exporters.ResultJson.Read(f).Plan).ToList();
            Assert.Equal([2, 3, 4], plans.Select(p => p.Repeat));
            Assert.Equal("from-variable", plans[1].TopicPrefix);
            Assert.Equal(2, typo.Exit);
            Assert.StartsWith("kafkaperf: 'run:repaet' (from kafkaperf.json or KAFKAPERF_RUN__REPAET) is not an option of run", Assert.Single(Lines(typo.Stderr)), StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_KafkaHomeWithoutJars_OneLineExit2AndNothingWritten()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, stderr) = await CliProcess.RunAsync(
            new Dictionary<string, string?> { ["KAFKAPERF_KAFKA_HOME"] = "/nonexistent/kafka" }, "run", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(Lines(stderr));
        // The java client, checked before anything starts, is the first to need the jars.
        Assert.StartsWith("kafkaperf: Client 'java' cannot run here: KAFKAPERF_KAFKA_HOME is '/nonexistent/kafka', but '/nonexistent/kafka/libs' holds no kafka-clients jar", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_UnreachableBootstrap_OneLineExit2WithinTheProbeTimeout()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));
        var watch = Stopwatch.StartNew();

        var (exit, _, stderr) = await CliProcess.RunAsync(null, "run", "--bootstrap", "127.0.0.1:1", "--quiet", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(Lines(stderr));
        Assert.StartsWith("kafkaperf: No Kafka broker answered at '127.0.0.1:1' within 30 s", line, StringComparison.Ordinal);
        Assert.InRange(watch.Elapsed, TimeSpan.FromSeconds(25), TimeSpan.FromSeconds(60));
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_DefaultClientsOnEmbeddedBroker_TablesFilesAndNoBrokerLeft()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            // Started without DOTNET_EnableAlternateStackCheck, as from a plain shell: the tool restarts itself with it,
            // so the in-process JVM of the java client can run.
            var (exit, stdout, stderr) = await CliProcess.RunAsync(new Dictionary<string, string?> { ["DOTNET_EnableAlternateStackCheck"] = null },
                "run", "--messages", "2000", "--sizes", "100", "--repeat", "1", "--broker-heap", "256", "--output", output.FullName);

            Assert.True(exit == 0, stderr);
            Assert.Matches(BrokerReady(), stderr);
            Assert.Contains("| produce | defaults | confluent | 2 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("| roundtrip | defaults | confluent | 2 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("| produce | defaults | java | 2 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("| consume | defaults | java | 2 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("| roundtrip | defaults | java | 2 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("Apache Kafka client 4.3.1", stdout, StringComparison.Ordinal);
            Assert.Contains("librdkafka: 2.16.0 (librdkafka.redist)", stdout, StringComparison.Ordinal);
            Assert.Contains("(Kafka 4.3.1, embedded KRaft broker", stdout, StringComparison.Ordinal);
            Assert.Equal(["csv", "html", "json", "md"], output.GetFiles().Select(f => f.Extension.TrimStart('.')).Where(e => e != "svg").Order());
            Assert.Single(output.GetFiles("*-throughput-produce.svg"));
            var port = BrokerReady().Match(stderr).Groups[1].Value;
            Assert.DoesNotContain(Process.GetProcesses(), p => CommandLine(p.Id).Contains("127.0.0.1:" + port, StringComparison.Ordinal));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>The tool, or its whole process group, ended by a signal. A class of its own: xUnit runs a class's tests one
    /// after another, and these start a broker or a three-node cluster each, so they run beside the others.</summary>
    public sealed class Signals
    {
        [Theory]
        [InlineData("SIGTERM", 1)]
        [InlineData("SIGKILL", 1)]
        [InlineData("SIGTERM", 3)]
        [InlineData("SIGKILL", 3)]
        public async Task Broker_OwnerEndsBySignal_NoBrokerJvmAndNoDataLeft(string signal, int brokers)
        {
            using var cli = CliProcess.Start(null, "broker", "--broker-heap", "256", "--brokers", brokers.ToString(System.Globalization.CultureInfo.InvariantCulture));
            using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            var bootstrap = await cli.FirstLine.WaitAsync(timeout.Token);
            Assert.Equal(brokers, bootstrap.Split(',').Length);
            Assert.All(bootstrap.Split(','), b => Assert.StartsWith("127.0.0.1:", b, StringComparison.Ordinal));
            var nodes = await ReadBrokerLinesAsync(cli, brokers, timeout.Token);
            // Each node's folder (node-N) sits in the cluster's folder, which goes too.
            var data = Path.GetDirectoryName(Path.GetDirectoryName(nodes[0].LogFile))!;
            Assert.All(nodes, n => Assert.True(IsRunning(n.Pid)));
            Assert.True(Directory.Exists(data));

            Assert.Equal(0, Kill(cli.Process.Id, signal));
            await cli.Process.WaitForExitAsync(timeout.Token);

            await WaitUntilAsync(() => nodes.All(n => !IsRunning(n.Pid)) && !Directory.Exists(data), TimeSpan.FromSeconds(30));
            Assert.All(nodes, n => Assert.False(IsRunning(n.Pid), $"broker JVM {n.Pid} outlived its owner after {signal}"));
            Assert.False(Directory.Exists(data), $"data folder {data} left after {signal}");
            if (signal == "SIGTERM")
            {
                // SIGTERM is handled, not just survived: the owner stops the broker in order and says so.
                cli.Process.WaitForExit();
                Assert.Equal(0, cli.Process.ExitCode);
                Assert.Contains("kafkaperf: broker stopped, data deleted.", cli.Stderr, StringComparison.Ordinal);
            }
        }

        [Fact]
        public async Task Run_WholeProcessGroupGetsSigterm_SavesTheRunsDoneAndLeavesNoBroker()
        {
            // timeout(1), service managers and CI cancellation signal the whole group: the broker JVM gets SIGTERM too.
            var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
            try
            {
                using var cli = CliProcess.Start(null, "setsid", "run", "--messages", "100000", "--sizes", "100", "--repeat", "4",
                    "--scenarios", "produce", "--broker-heap", "256", "--output", output.FullName);
                using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(3));
                while (!cli.Stderr.Contains("[   3/", StringComparison.Ordinal))
                {
                    Assert.False(cli.Process.HasExited, cli.Stderr);
                    await Task.Delay(50, timeout.Token);
                }
                var port = BrokerReady().Match(cli.Stderr).Groups[1].Value;

                Assert.Equal(0, Kill(-cli.Process.Id, "SIGTERM"));
                await cli.Process.WaitForExitAsync(timeout.Token);
                cli.Process.WaitForExit();

                Assert.True(cli.Process.ExitCode == 143, cli.Stderr);
                Assert.Equal(["csv", "html", "json", "md"], output.GetFiles().Select(f => f.Extension.TrimStart('.')).Where(e => e != "svg").Order());
                Assert.Single(output.GetFiles("*-throughput-produce.svg"));
                Assert.Contains("Cancelled", File.ReadAllText(output.GetFiles("*.md").Single().FullName), StringComparison.Ordinal);
                Assert.DoesNotContain("could not be deleted", cli.Stderr, StringComparison.Ordinal);
                await WaitUntilAsync(() => !Process.GetProcesses().Any(p => CommandLine(p.Id).Contains("127.0.0.1:" + port, StringComparison.Ordinal)), TimeSpan.FromSeconds(20));
                Assert.DoesNotContain(Process.GetProcesses(), p => CommandLine(p.Id).Contains("127.0.0.1:" + port, StringComparison.Ordinal));
            }
            finally
            {
                output.Delete(recursive: true);
            }
        }
    }

    private static async Task<List<(int Pid, string LogFile)>> ReadBrokerLinesAsync(CliProcess cli, int nodes, CancellationToken cancellationToken)
    {
        while (true)
        {
            var matches = BrokerLine().Matches(cli.Stderr);
            if (matches.Count >= nodes)
                return [.. matches.Select(m => (int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), m.Groups[2].Value))];
            await Task.Delay(50, cancellationToken);
        }
    }

    private static async Task WaitUntilAsync(Func<bool> condition, TimeSpan timeout)
    {
        var watch = Stopwatch.StartNew();
        while (!condition() && watch.Elapsed < timeout) await Task.Delay(100);
    }

    private static int Kill(int pid, string signal)
    {
        // A negative pid signals the whole process group.
        using var kill = Process.Start("kill", ["-s", signal.Replace("SIG", string.Empty, StringComparison.Ordinal), "--", pid.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
        return kill.ExitCode;
    }

    private static bool IsRunning(int pid) => File.Exists($"/proc/{pid}/cmdline") && !File.ReadAllText($"/proc/{pid}/stat").Contains(") Z ", StringComparison.Ordinal);

    private static string CommandLine(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ');
        }
        catch (IOException)
        {
            return string.Empty;
        }
    }

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    [GeneratedRegex(@"\(pid (\d+), log (\S+broker\.log)\)")]
    private static partial Regex BrokerLine();

    [GeneratedRegex(@"broker ready at 127\.0\.0\.1:(\d+)")]
    private static partial Regex BrokerReady();
}
