using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Cli.Tests;

/// <summary>
/// Faults done for real to the tool as a user runs it: the embedded broker killed (SIGKILL) or stopped (SIGSTOP) in the
/// middle of a run, a --bootstrap cluster that dies or pauses, SIGINT and SIGTERM during a flush that hangs, the tool
/// itself killed, the output folder removed. Each asserts a bounded time, the message, the exit code and the files.
/// </summary>
public sealed class FaultTests : IDisposable
{
    private readonly DirectoryInfo _output = Directory.CreateTempSubdirectory("kafkaperf-fault-");

    public void Dispose() => _output.Delete(recursive: true);

    [Theory]
    [InlineData("confluent", "produce")]
    [InlineData("confluent", "consume")]
    [InlineData("confluent", "roundtrip")]
    [InlineData("java", "produce")]
    [InlineData("java", "consume")]
    [InlineData("java", "roundtrip")]
    public async Task EmbeddedBrokerKilledDuringARun_RunFailsAtOnceNamingTheExitExit3AndEveryRunSaved(string client, string scenario)
    {
        // The kill must land in run 3. java's in-process client, its JVM cold, sends 1 KB records at 3 000-40 000/s, so
        // 200 000 of them took about 90 s to reach run 3 in CI; with 20 000 its produce and roundtrip run 3 still last
        // 1.5-4 s, no shorter than confluent's with 200 000 (0.8-1.8 s). A consume's run 3 reads the topic the warm-up
        // filled, without filling: java reads 20 000 in under 0.2 s, so it reads 100 000 (one fill of them, in run 1).
        using var run = client == "java"
            ? StartRun(_output, client, scenario, "--messages", scenario == "consume" ? "100000" : "20000")
            : StartRun(_output, client, scenario);
        await run.WaitForAsync("[   2/3]", TimeSpan.FromMinutes(3));
        var broker = BrokerOf(run);
        await Task.Delay(200, TestContext.Current.CancellationToken);

        var killed = Stopwatch.StartNew();
        Assert.Equal(0, Signal(broker.Pid, "KILL"));
        var exit = await ExitAsync(run, TimeSpan.FromSeconds(30));
        var took = killed.Elapsed;

        Assert.True(exit == 3, $"exit {exit}: {run.Stderr}");
        Assert.True(took < TimeSpan.FromSeconds(10), $"the tool took {took.TotalSeconds:0.0} s to end after the broker died");
        var line = Lines(run.Stderr).Single(l => l.Contains("the embedded broker exited", StringComparison.Ordinal) && l.StartsWith("kafkaperf:", StringComparison.Ordinal));
        Assert.StartsWith("kafkaperf: the embedded broker exited (killed by SIGKILL) during run 3; its log: ", line, StringComparison.Ordinal);
        var log = line["kafkaperf: the embedded broker exited (killed by SIGKILL) during run 3; its log: ".Length..line.IndexOf(". The plan stopped", StringComparison.Ordinal)];
        Assert.True(new FileInfo(log).Length > 0, $"no broker log at {log}");
        Assert.Equal(_output.FullName, Path.GetDirectoryName(log));
        Assert.EndsWith("The plan stopped; 3 runs were saved (2 finished, 1 failed).", line, StringComparison.Ordinal);

        using var json = ReadJson(_output);
        var root = json.RootElement;
        Assert.StartsWith("the embedded broker exited (killed by SIGKILL) during run 3", root.GetProperty("abortReason").GetString(), StringComparison.Ordinal);
        Assert.False(root.GetProperty("inProgress").GetBoolean());
        var runs = root.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(3, runs.Count);
        Assert.All(runs.Take(2), r => Assert.True(r.GetProperty("succeeded").GetBoolean()));
        Assert.Equal(root.GetProperty("abortReason").GetString(), runs[2].GetProperty("error").GetString());
        Assert.Equal(4, File.ReadAllLines(Single(_output, "*.csv")).Length);
        Assert.Single(_output.GetFiles("*.md"));
        Assert.Single(_output.GetFiles("*.html"));
        await AssertGoneAsync(broker);
    }

    /// <summary>Signals while the java client's flush hangs on a stopped broker, and the tool itself killed. A class of its
    /// own (as is <see cref="Stalls"/>): xUnit runs a class's tests one after another, and in one class these faults took
    /// 13 minutes of CI and ended last, alone; now they run beside each other and the other classes.</summary>
    public sealed class Signals : IDisposable
    {
        private readonly DirectoryInfo _output = Directory.CreateTempSubdirectory("kafkaperf-fault-");

        public void Dispose() => _output.Delete(recursive: true);

        [Theory]
        [InlineData("INT", 130)]
        [InlineData("TERM", 143)]
        public async Task SignalDuringAHungFlush_EndsWellBeforeTheStallTimeoutWithTheRunsDoneSavedAndTheRunCutShortMarked(string signal, int expectedExit)
        {
            var (run, broker) = await StartWithAHungJavaFlushAsync(_output);
            using var _ = run;
            try
            {
                await Task.Delay(1500, TestContext.Current.CancellationToken);

                var signalled = Stopwatch.StartNew();
                Assert.Equal(0, Signal(run.Process.Id, signal));
                var exit = await ExitAsync(run, TimeSpan.FromSeconds(30));
                var took = signalled.Elapsed;

                Assert.True(exit == expectedExit, $"exit {exit}: {run.Stderr}");
                // The signal must cut the hung flush, which would otherwise hold the tool for the whole stall timeout (60 s);
                // what follows (the reports written, the stopped broker killed) is this machine's speed: 2.0 s alone, 5.6 s
                // in a CI run with two test assemblies' brokers beside it. A third of the stall timeout tells the two apart.
                Assert.True(took < TimeSpan.FromSeconds(20), $"took {took.TotalSeconds:0.0} s");
            }
            finally
            {
                Signal(broker.Pid, "CONT");
            }
            using var json = ReadJson(_output);
            var root = json.RootElement;
            Assert.True(root.GetProperty("cancelled").GetBoolean());
            var runs = root.GetProperty("runs").EnumerateArray().ToList();
            Assert.Equal(3, runs.Count);
            Assert.Equal("cancelled before this run finished (Ctrl+C or SIGTERM): not measured", runs[2].GetProperty("error").GetString());
            Assert.Equal(4, File.ReadAllLines(Single(_output, "*.csv")).Length);
            await AssertGoneAsync(broker);
        }

        [Fact]
        public async Task SecondCtrlC_EndsAtOnceWithTheCheckpointMarkingTheRunCutShort()
        {
            var (run, broker) = await StartWithAHungJavaFlushAsync(_output);
            using var _ = run;
            try
            {
                await Task.Delay(1000, TestContext.Current.CancellationToken);
                Assert.Equal(0, Signal(run.Process.Id, "INT"));
                await Task.Delay(200, TestContext.Current.CancellationToken);

                var second = Stopwatch.StartNew();
                Assert.Equal(0, Signal(run.Process.Id, "INT"));
                var exit = await ExitAsync(run, TimeSpan.FromSeconds(30));

                Assert.True(exit == 130, $"exit {exit}: {run.Stderr}");
                Assert.True(second.Elapsed < TimeSpan.FromSeconds(2.5), $"took {second.Elapsed.TotalSeconds:0.0} s after the second Ctrl+C");
                // The first Ctrl+C alone ends a hung flush in about 2 s, within the bound above: only this line shows that the
                // second one ended the tool.
                Assert.Contains("kafkaperf: stopped at once (a second signal)", run.Stderr, StringComparison.Ordinal);
            }
            finally
            {
                Signal(broker.Pid, "CONT");
            }
            using var json = ReadJson(_output);
            var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
            Assert.True(json.RootElement.GetProperty("cancelled").GetBoolean());
            Assert.False(json.RootElement.GetProperty("inProgress").GetBoolean());
            Assert.Equal(3, runs.Count);
            Assert.Equal("cancelled before this run finished (Ctrl+C or SIGTERM): not measured", runs[2].GetProperty("error").GetString());
            await AssertGoneAsync(broker);
        }

        [Fact]
        public async Task ToolKilledMidPlan_CheckpointFilesHoldEveryFinishedRun()
        {
            using var run = StartRun(_output, "confluent", "produce", "--repeat", "6", "--sizes", "100", "--messages", "100000");
            await run.WaitForAsync("[   3/7]", TimeSpan.FromMinutes(3));
            var broker = BrokerOf(run);

            Assert.Equal(0, Signal(run.Process.Id, "KILL"));
            await ExitAsync(run, TimeSpan.FromSeconds(10));

            // The checkpoint JSON and the runs appended beside it, read as every reader of results reads them.
            using var json = JsonDocument.Parse(ResultJson.Write(ResultJson.Read(Single(_output, "*.json"))));
            var root = json.RootElement;
            Assert.True(root.GetProperty("inProgress").GetBoolean());
            var runs = root.GetProperty("runs").EnumerateArray().ToList();
            Assert.InRange(runs.Count, 3, 7);
            Assert.All(runs, r => Assert.True(r.GetProperty("succeeded").GetBoolean()));
            Assert.Equal(runs.Select(r => r.GetProperty("sequence").GetInt32()), Enumerable.Range(1, runs.Count));
            Assert.Equal(runs.Count + 1, File.ReadAllLines(Single(_output, "*.csv")).Length);
            Assert.Empty(_output.GetFiles("*.md"));
            Assert.Empty(_output.GetFiles(".*.tmp"));
            // The broker notices its owner is gone, deletes its data and halts.
            await AssertGoneAsync(broker);
        }
    }

    /// <summary>Stalls: the embedded broker stopped, a --bootstrap cluster that dies or pauses, the output folder removed.</summary>
    public sealed class Stalls : IDisposable
    {
        private readonly DirectoryInfo _output = Directory.CreateTempSubdirectory("kafkaperf-fault-");

        public void Dispose() => _output.Delete(recursive: true);

        [Fact]
        public async Task EmbeddedBrokerStoppedLongerThanTheStallTimeout_RunFailsSayingWhatStalledAndThePlanStops()
        {
            using var run = StartRun(_output, "confluent", "produce", "--stall-timeout", "3s", "--messages", "300000");
            await run.WaitForAsync("[   2/3]", TimeSpan.FromMinutes(3));
            var broker = BrokerOf(run);
            await Task.Delay(100, TestContext.Current.CancellationToken);

            var stopped = Stopwatch.StartNew();
            Assert.Equal(0, Signal(broker.Pid, "STOP"));
            int exit;
            try
            {
                exit = await ExitAsync(run, TimeSpan.FromSeconds(40));
            }
            finally
            {
                // So that whatever happened, it can be stopped.
                Signal(broker.Pid, "CONT");
            }
            var took = stopped.Elapsed;

            Assert.True(exit == 3, $"exit {exit}: {run.Stderr}");
            // 3 s without an acknowledgement, up to 3 s asking the broker, then the stopped broker is killed.
            Assert.True(took < TimeSpan.FromSeconds(15), $"took {took.TotalSeconds:0.0} s");
            Assert.Contains($"kafkaperf: the embedded broker at {broker.Bootstrap} did not answer for 3 s (--stall-timeout) after run 3 failed (", run.Stderr, StringComparison.Ordinal);
            using var json = ReadJson(_output);
            var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
            Assert.Equal(3, runs.Count);
            // Stopped just after run 2 ended, the broker may hold up run 3 while its topic or its producer is still being
            // created (a CI machine under load caught it creating the topic, and once the new producer waiting 3 s for its
            // topic's metadata, which now ends by its own bound before the stall watch does, and once waiting for the broker to know
            // the topic before any client started).
            Assert.Matches(@"^(stalled while (creating the producer|sending|flushing): (no record sent|\d+ of 300000 records acknowledged), nothing new for 3 s \(--stall-timeout\)"
                + @"|creating topic '[^']+' failed: \w+: .*([Tt]ime|3 s).*"
                + @"|TimeoutException: Topic '[^']+' was not ready in the metadata within [0-9.]+ s .*"
                // Or while the run waited for the broker to know its topic before any client started.
                + @"|the cluster was not ready for the run \(--stall-timeout\): (no broker at|broker \d+ \(|topic '|the coordinator of group ')[^\n]* after 3 s .*)$", runs[2].GetProperty("error").GetString());
            await AssertGoneAsync(broker);
        }

        [Fact]
        public async Task BootstrapClusterDies_RunFailsAfterTheStallTimeoutAndThePlanStopsWithOneLine()
        {
            using var cluster = CliProcess.Start(null, "broker", "--broker-heap", "512");
            var bootstrap = await cluster.FirstLine.WaitAsync(TimeSpan.FromMinutes(2), TestContext.Current.CancellationToken);
            var jvm = JvmOf(cluster.Process.Id);
            using var run = StartRun(_output, "confluent", "produce", "--bootstrap", bootstrap, "--stall-timeout", "3s", "--messages", "300000");
            await run.WaitForAsync("[   2/3]", TimeSpan.FromMinutes(3));
            await Task.Delay(100, TestContext.Current.CancellationToken);

            var killed = Stopwatch.StartNew();
            Assert.Equal(0, Signal(jvm, "KILL"));
            var exit = await ExitAsync(run, TimeSpan.FromSeconds(40));
            var took = killed.Elapsed;

            Assert.True(exit == 3, $"exit {exit}: {run.Stderr}");
            Assert.True(took < TimeSpan.FromSeconds(15), $"took {took.TotalSeconds:0.0} s");
            var line = Lines(run.Stderr).Last();
            Assert.StartsWith($"kafkaperf: the Kafka cluster at {bootstrap} did not answer for 3 s (--stall-timeout) after run 3 failed (", line, StringComparison.Ordinal);
            Assert.EndsWith("The plan stopped; 3 runs were saved (2 finished, 1 failed).", line, StringComparison.Ordinal);
            Assert.Contains("warning: 1 topic(s) could not be deleted while the Kafka cluster did not answer: kafkaperf__confluent__300000__1000__3. Delete them when it is back.", run.Stderr, StringComparison.Ordinal);
            using var json = ReadJson(_output);
            Assert.Equal(3, json.RootElement.GetProperty("runs").GetArrayLength());
        }

        [Fact]
        public async Task BootstrapClusterPausesAndComesBack_PlanGoesOnWithTheFailedRunListed()
        {
            using var cluster = CliProcess.Start(null, "broker", "--broker-heap", "512");
            var bootstrap = await cluster.FirstLine.WaitAsync(TimeSpan.FromMinutes(2), TestContext.Current.CancellationToken);
            var jvm = JvmOf(cluster.Process.Id);
            using var run = StartRun(_output, "confluent", "produce", "--bootstrap", bootstrap, "--stall-timeout", "3s", "--messages", "300000", "--repeat", "3");
            await run.WaitForAsync("[   2/4]", TimeSpan.FromMinutes(3));
            // A second into run 3 (each run is 4 s or more here): 100 ms after its line, beside stress-ng --cpu 2, the pause
            // once fell on the run's set-up, which waited it out, and no run failed.
            await Task.Delay(1000, TestContext.Current.CancellationToken);

            Assert.Equal(0, Signal(jvm, "STOP"));
            try
            {
                // The run fails after 3 s without progress; the cluster is back 2 s into the 3 s the plan waits for it.
                await Task.Delay(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken);
            }
            finally
            {
                Signal(jvm, "CONT");
            }
            var exit = await ExitAsync(run, TimeSpan.FromMinutes(2));

            Assert.True(exit == 1, $"exit {exit}: {run.Stderr}");
            Assert.Contains($"warning: The Kafka cluster at {bootstrap} answers again after ", run.Stderr, StringComparison.Ordinal);
            Assert.Contains("the plan goes on (run 3 is listed as failed).", run.Stderr, StringComparison.Ordinal);
            using var json = ReadJson(_output);
            var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
            Assert.Equal(4, runs.Count);
            Assert.Equal([true, true, false, true], runs.Select(r => r.GetProperty("succeeded").GetBoolean()));
            Assert.False(json.RootElement.TryGetProperty("abortReason", out _));
            Assert.DoesNotContain("could not be deleted", run.Stderr, StringComparison.Ordinal);
        }

        [Fact]
        public async Task OutputFolderRemovedMidPlan_OneLineAndEveryRunInTheTemporaryFolder()
        {
            var temp = Directory.CreateTempSubdirectory("kafkaperf-fault-tmp-");
            try
            {
                var env = new Dictionary<string, string?> { ["TMPDIR"] = temp.FullName };
                var output = Path.Combine(_output.FullName, "results");
                using var run = CliProcess.Start(env, "run", "--clients", "confluent", "--scenarios", "produce", "--sizes", "100", "--messages", "50000",
                    "--repeat", "4", "--broker-heap", "512", "--output", output);
                await run.WaitForAsync("[   2/5]", TimeSpan.FromMinutes(3));

                Directory.Delete(output, recursive: true);
                var exit = await ExitAsync(run, TimeSpan.FromMinutes(2));

                // Every run succeeded, but the files are not where they were asked for: exit code 1, as at the end.
                Assert.True(exit == 1, $"exit {exit}: {run.Stderr}");
                var fallback = Path.Combine(temp.FullName, "kafkaperf-results");
                var moved = Lines(run.Stderr).Where(l => l.Contains("can no longer be written", StringComparison.Ordinal)).ToList();
                var line = Assert.Single(moved);
                Assert.StartsWith($"kafkaperf: the results can no longer be written to '{output}' (", line, StringComparison.Ordinal);
                Assert.Contains($"they are saved in '{fallback}' as kafkaperf-", line, StringComparison.Ordinal);
                Assert.False(Directory.Exists(output));
                var json = Assert.Single(Directory.GetFiles(fallback, "*.json"));
                using var document = JsonDocument.Parse(File.ReadAllText(json));
                Assert.Equal(5, document.RootElement.GetProperty("runs").GetArrayLength());
                Assert.False(document.RootElement.GetProperty("inProgress").GetBoolean());
                Assert.Single(Directory.GetFiles(fallback, "*.md"));
                Assert.Equal(6, File.ReadAllLines(Assert.Single(Directory.GetFiles(fallback, "*.csv"))).Length);
            }
            finally
            {
                temp.Delete(recursive: true);
            }
        }
    }

    private static CliProcess StartRun(DirectoryInfo output, string client, string scenario, params string[] extra)
    {
        bool signals = extra.Contains("--signals");
        var options = new Dictionary<string, string>
        {
            ["--clients"] = client, ["--scenarios"] = scenario, ["--sizes"] = "1000", ["--messages"] = "200000", ["--repeat"] = "2",
            ["--broker-heap"] = "512", ["--output"] = output.FullName,
        };
        var rest = extra.Where(e => e != "--signals").ToList();
        for (int i = 0; i + 1 < rest.Count; i += 2) options[rest[i]] = rest[i + 1];
        if (options.ContainsKey("--bootstrap")) options.Remove("--broker-heap");
        var args = new List<string>();
        if (signals) args.Add("default-signals");
        args.Add("run");
        foreach (var (key, value) in options) args.AddRange([key, value]);
        return CliProcess.Start(null, [.. args]);
    }

    private static async Task<int> ExitAsync(CliProcess cli, TimeSpan timeout)
    {
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        wait.CancelAfter(timeout);
        await cli.Process.WaitForExitAsync(wait.Token);
        cli.Process.WaitForExit();
        return cli.Process.ExitCode;
    }

    /// <summary>The embedded broker JVM of a tool process: its data folder is named after the tool's pid.</summary>
    /// <summary>A java produce plan whose third run's sends and flush hang on a broker stopped with SIGSTOP, the stall
    /// timeout far away; the caller sends SIGCONT.</summary>
    private static async Task<(CliProcess Run, (int Pid, string DataDirectory, string Bootstrap) Broker)> StartWithAHungJavaFlushAsync(DirectoryInfo output)
    {
        // 30 000 records of 1 KB are almost four times a producer buffer of 8 MB: stopped a moment into run 3, the producer
        // still blocks with its buffer full, as with the 100 000 records and the default 32 MB this sent before (each test
        // took 75-131 s of a loaded CI machine, most of it the first two runs of a cold JVM).
        var run = StartRun(output, "java", "produce", "--stall-timeout", "60s", "--messages", "30000",
            "-X", "java:buffer.memory=8388608", "--signals");
        await run.WaitForAsync("[   2/3]", TimeSpan.FromMinutes(3));
        var broker = BrokerOf(run);
        await Task.Delay(300, TestContext.Current.CancellationToken);
        Assert.Equal(0, Signal(broker.Pid, "STOP"));
        return (run, broker);
    }

    private static (int Pid, string DataDirectory, string Bootstrap) BrokerOf(CliProcess cli)
    {
        foreach (var pid in Pids())
        {
            var args = CommandLine(pid);
            int main = Array.IndexOf(args, "kafkaperf.broker.EmbeddedBrokerMain");
            if (main < 0 || main + 4 >= args.Length) continue;
            // The node's folder (node-N) sits in the cluster's folder, named after the owning process.
            var data = Path.GetDirectoryName(args[main + 3])!;
            if (Path.GetFileName(data).StartsWith($"{cli.Process.Id}-", StringComparison.Ordinal)) return (pid, data, args[main + 4]);
        }
        throw new InvalidOperationException($"no broker JVM of process {cli.Process.Id}: {cli.Stderr}");
    }

    private static int JvmOf(int owner)
    {
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(30))
        {
            foreach (var pid in Pids())
            {
                var args = CommandLine(pid);
                int main = Array.IndexOf(args, "kafkaperf.broker.EmbeddedBrokerMain");
                if (main >= 0 && main + 3 < args.Length && (Path.GetFileName(Path.GetDirectoryName(args[main + 3])) ?? string.Empty).StartsWith($"{owner}-", StringComparison.Ordinal)) return pid;
            }
            Thread.Sleep(100);
        }
        throw new InvalidOperationException($"no broker JVM of process {owner}");
    }

    private static async Task AssertGoneAsync((int Pid, string DataDirectory, string Bootstrap) broker)
    {
        // The broker halts as its stdin pipe closes, after deleting its data: seconds on a quiet machine; a CI machine
        // under a load of 30 once took more than 20 s. Bounded all the same.
        var watch = Stopwatch.StartNew();
        while ((IsRunning(broker.Pid) || Directory.Exists(broker.DataDirectory)) && watch.Elapsed < TimeSpan.FromSeconds(60)) await Task.Delay(100);
        Assert.False(IsRunning(broker.Pid), $"broker JVM {broker.Pid} outlived the tool");
        Assert.False(Directory.Exists(broker.DataDirectory), $"broker data {broker.DataDirectory} left behind");
    }

    private static JsonDocument ReadJson(DirectoryInfo output) => JsonDocument.Parse(File.ReadAllText(Single(output, "*.json")));

    private static string Single(DirectoryInfo output, string pattern) => Assert.Single(output.GetFiles(pattern)).FullName;

    private static IEnumerable<int> Pids() =>
        Directory.EnumerateDirectories("/proc").Select(Path.GetFileName).Where(n => n!.All(char.IsAsciiDigit)).Select(n => int.Parse(n!, CultureInfo.InvariantCulture));

    private static string[] CommandLine(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Split('\0', StringSplitOptions.RemoveEmptyEntries);
        }
        catch (IOException)
        {
            return [];
        }
        catch (UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static bool IsRunning(int pid)
    {
        try
        {
            return !File.ReadAllText($"/proc/{pid}/stat").Contains(") Z ", StringComparison.Ordinal);
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static int Signal(int pid, string signal)
    {
        using var kill = Process.Start("kill", ["-s", signal, "--", pid.ToString(CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
        return kill.ExitCode;
    }

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
