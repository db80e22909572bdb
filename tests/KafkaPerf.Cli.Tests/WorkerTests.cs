using System.Diagnostics;
using System.Text.Json;

namespace KafkaPerf.Cli.Tests;

/// <summary>
/// <c>run --processes</c> and <c>run --workers</c> with <c>worker</c> processes, on a real broker: the merged run is the
/// sum of its workers' parts, a worker killed for real is reported by name and the plan finishes without it.
/// </summary>
public sealed class WorkerTests : IDisposable
{
    private readonly DirectoryInfo _output = Directory.CreateTempSubdirectory("kafkaperf-workers-");

    public void Dispose() => _output.Delete(recursive: true);

    [Theory]
    [InlineData(new[] { "--workers", "a/b" }, "--workers: the worker group 'a/b' is not a name of letters")]
    [InlineData(new[] { "--workers", "g", "--expect", "0" }, "--expect 0 is out of range: give 1 to 1000 workers.")]
    [InlineData(new[] { "--expect", "2" }, "--expect counts the workers of --workers GROUP")]
    [InlineData(new[] { "--workers", "g", "--processes", "2" }, "--workers and --processes both say where the runs run")]
    [InlineData(new[] { "--processes", "0" }, "--processes 0 is out of range: give 1 to 64 processes.")]
    [InlineData(new[] { "--processes", "2", "--join-timeout", "soon" }, "--join-timeout 'soon'")]
    [InlineData(new[] { "--processes", "2", "--cluster-warmup", "10s" }, "--cluster-warmup runs this process's clients, and with --workers or --processes the workers run them")]
    public async Task Run_BadWorkerOptions_OneLineExit2AndNoFiles(string[] args, string expected)
    {
        var output = Path.Combine(_output.FullName, "never");

        var (exit, _, err) = await CliProcess.RunAsync(null, ["run", "--clients", "confluent", .. args, "--output", output]);

        Assert.True(exit == 2, err);
        Assert.Contains(expected, err, StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
        Assert.False(Directory.Exists(output));
    }

    [Theory]
    [InlineData(new[] { "--group", "a b", "--bootstrap", "localhost:9092" }, "the worker group 'a b' is not a name of letters, digits, '.', '_' and '-' (at most 200): e.g. --group bench-1.")]
    [InlineData(new[] { "--group", "g", "--bootstrap", "localhost:9092", "--plans", "0" }, "--plans 0 is out of range: give 1 or more")]
    [InlineData(new[] { "--group", "g", "--bootstrap", "localhost:9092", "--security", "sasl-ssl" }, "--security sasl-ssl needs credentials")]
    public async Task Worker_BadInput_OneLineExit2(string[] args, string expected)
    {
        var (exit, _, err) = await CliProcess.RunAsync(new Dictionary<string, string?> { ["KAFKAPERF_SASL_USERNAME"] = null, ["KAFKAPERF_SASL_PASSWORD"] = null }, ["worker", .. args]);

        Assert.True(exit == 2, err);
        Assert.Contains(expected, err, StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
    }

    [Fact]
    public async Task Worker_NoClusterAtTheAddress_TriesAgainUntilItsConnectTimeoutThenOneLineExit3()
    {
        var watch = Stopwatch.StartNew();

        var (exit, _, err) = await CliProcess.RunAsync(null, "worker", "--group", "g", "--bootstrap", "127.0.0.1:1", "--connect-timeout", "20s");

        Assert.True(exit == 3, err);
        var lines = err.TrimEnd().Split('\n');
        // Each failed attempt is said, then the end in one line.
        Assert.Contains("is not ready", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("kafkaperf: worker ", lines[^1], StringComparison.Ordinal);
        Assert.Contains("cannot join group 'g' on 127.0.0.1:1 within 20 s (--connect-timeout)", lines[^1], StringComparison.Ordinal);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(60), $"took {watch.Elapsed}");
    }

    [Fact]
    public async Task Processes3_AtAFixedRate_EveryRunIsTheSumOfItsThreeWorkersAndNoWorkerOutlivesTheTool()
    {
        var (exit, stdout, err) = await CliProcess.RunAsync(null, "run", "--clients", "confluent", "--scenarios", "produce,roundtrip",
            "--sizes", "100", "--rate", "3000", "--duration", "2s", "--warmup", "500ms", "--repeat", "1", "--processes", "3",
            "--broker-heap", "512", "--stall-timeout", "10s", "--format", "json,md", "--output", _output.FullName);

        Assert.True(exit == 0, err);
        Assert.Contains("3 worker(s) of group 'local-", err, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(Assert.Single(_output.GetFiles("*.json")).FullName));
        var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(2, runs.Count);
        foreach (var run in runs)
        {
            Assert.True(run.GetProperty("succeeded").GetBoolean(), run.ToString());
            var parts = run.GetProperty("workers").EnumerateArray().ToList();
            Assert.Equal(["local-1", "local-2", "local-3"], parts.Select(p => p.GetProperty("worker").GetString()));
            Assert.Equal(run.GetProperty("messageCount").GetInt64(), parts.Sum(p => p.GetProperty("records").GetInt64()));
            Assert.Equal(run.GetProperty("sent").GetInt64(), parts.Sum(p => p.GetProperty("sent").GetInt64()));
            Assert.Equal(run.GetProperty("delivered").GetInt64(), parts.Sum(p => p.GetProperty("delivered").GetInt64()));
            Assert.Equal(run.GetProperty("received").GetInt64(), parts.Sum(p => p.GetProperty("received").GetInt64()));
            Assert.Equal(3, run.GetProperty("producers").GetInt32());
            // The rate was split three ways and each worker kept its share.
            Assert.All(parts, p => Assert.InRange(p.GetProperty("achievedRate").GetDouble(), 900, 1010));
            // Percentiles of the merged histogram lie within the workers' own.
            var p99 = run.GetProperty("responseTime").GetProperty("p99Micros").GetDouble();
            var own = parts.Select(p => p.GetProperty("latency").GetProperty("p99Micros").GetDouble()).ToList();
            Assert.InRange(p99, own.Min() * 0.999, own.Max() * 1.001);
        }
        Assert.Contains("## Workers", stdout, StringComparison.Ordinal);
        Assert.Empty(WorkerProcesses());
    }

    [Fact]
    public async Task Processes2_ThroughAShapedNetwork_TheWorkersClientsGoThroughTheProxiesThisProcessShapes()
    {
        var (exit, _, err) = await CliProcess.RunAsync(null, "run", "--clients", "confluent", "--scenarios", "produce", "--sizes", "100",
            "--messages", "400", "--repeat", "1", "--processes", "2", "--network", "rtt=5ms", "--broker-heap", "512", "--stall-timeout", "10s",
            "--format", "json", "--output", _output.FullName);

        Assert.True(exit == 0, err);
        using var json = JsonDocument.Parse(File.ReadAllText(Assert.Single(_output.GetFiles("*.json")).FullName));
        var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
        Assert.NotEmpty(runs);
        foreach (var run in runs)
        {
            Assert.True(run.GetProperty("succeeded").GetBoolean(), run.ToString());
            Assert.Equal(2, run.GetProperty("workers").GetArrayLength());
            // Shaped by this process before the workers ran it, measured once, and the bytes the workers sent went through.
            var network = run.GetProperty("network");
            Assert.Equal("rtt=5ms", network.GetProperty("asked").GetString());
            Assert.Equal("proxy", network.GetProperty("via").GetString());
            Assert.True(network.GetProperty("proxyBytes").GetInt64() > 400 * 100, network.ToString());
            Assert.True(run.GetProperty("latency").GetProperty("p50Micros").GetDouble() >= 5_000, run.GetProperty("latency").ToString());
        }
        Assert.Empty(WorkerProcesses());
    }

    [Fact]
    public async Task WorkersOfAGroup_OneKilledMidPlan_ReportedByNameAndThePlanFinishesWithTheOther()
    {
        using var broker = CliProcess.Start(null, "broker", "--broker-heap", "512");
        var bootstrap = await broker.FirstLine.WaitAsync(TimeSpan.FromMinutes(2), TestContext.Current.CancellationToken);
        var group = "test-" + Guid.NewGuid().ToString("N")[..8];

        // Nobody in the group: one line, exit 3, within the join timeout.
        var watch = Stopwatch.StartNew();
        var (lonely, _, lonelyErr) = await CliProcess.RunAsync(null, "run", "--clients", "confluent", "--scenarios", "produce", "--sizes", "100",
            "--messages", "100", "--repeat", "1", "--bootstrap", bootstrap, "--workers", group + "-empty", "--join-timeout", "2s",
            "--output", Path.Combine(_output.FullName, "lonely"));
        Assert.True(lonely == 3, lonelyErr);
        Assert.Contains($"kafkaperf: 0 of the 1 workers expected joined group '{group}-empty' within 2 s", lonelyErr, StringComparison.Ordinal);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(30), $"took {watch.Elapsed}");
        Assert.False(Directory.Exists(Path.Combine(_output.FullName, "lonely")));

        using var keep = CliProcess.Start(null, "worker", "--group", group, "--bootstrap", bootstrap, "--name", "w-keep");
        using var doomed = CliProcess.Start(null, "worker", "--group", group, "--bootstrap", bootstrap, "--name", "w-doomed");
        using var run = CliProcess.Start(null, "run", "--clients", "confluent", "--scenarios", "produce", "--sizes", "100",
            "--rate", "2000", "--duration", "2s", "--warmup", "0s", "--repeat", "4", "--bootstrap", bootstrap,
            "--workers", group, "--expect", "2", "--stall-timeout", "4s", "--format", "json", "--output", _output.FullName);
        await run.WaitForAsync("[   2/4]", TimeSpan.FromMinutes(2));

        doomed.Process.Kill();
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        wait.CancelAfter(TimeSpan.FromSeconds(90));
        await run.Process.WaitForExitAsync(wait.Token);
        run.Process.WaitForExit();

        // A failed run: exit code 1, every run saved.
        Assert.True(run.Process.ExitCode == 1, run.Stderr);
        Assert.Contains("worker w-doomed", run.Stderr, StringComparison.Ordinal);
        Assert.Contains("stopped answering", run.Stderr, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(Assert.Single(_output.GetFiles("*.json")).FullName));
        var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(4, runs.Count);
        var failed = Assert.Single(runs, r => !r.GetProperty("succeeded").GetBoolean());
        Assert.Contains("w-doomed", failed.GetProperty("error").GetString(), StringComparison.Ordinal);
        var last = runs[^1];
        Assert.True(last.GetProperty("succeeded").GetBoolean(), last.ToString());
        Assert.Equal("w-keep", Assert.Single(last.GetProperty("workers").EnumerateArray()).GetProperty("worker").GetString());
        Assert.Equal(last.GetProperty("messageCount").GetInt64(), last.GetProperty("workers")[0].GetProperty("records").GetInt64());
        Assert.Contains("kafkaperf: workers: all 2 ready ", run.Stderr, StringComparison.Ordinal);
        // The surviving worker went back to waiting.
        await keep.WaitForAsync("ended; waiting for plans", TimeSpan.FromSeconds(10));

        // A coordinator killed mid-run: the worker gives the plan up after the stall timeout and waits again.
        using var second = CliProcess.Start(null, "run", "--clients", "confluent", "--scenarios", "produce", "--sizes", "100",
            "--rate", "1000", "--duration", "5s", "--warmup", "0s", "--repeat", "2", "--bootstrap", bootstrap,
            "--workers", group, "--expect", "1", "--stall-timeout", "3s", "--format", "json", "--output", Path.Combine(_output.FullName, "second"));
        // Run 1 done (its line), run 2 under way.
        await second.WaitForAsync("[   1/2]", TimeSpan.FromMinutes(1));
        await Task.Delay(1000, TestContext.Current.CancellationToken);
        second.Process.Kill(entireProcessTree: true);
        var killed = Stopwatch.StartNew();
        await keep.WaitForAsync("said nothing for 3 s; the plan is given up and the worker waits again", TimeSpan.FromSeconds(30));
        Assert.True(killed.Elapsed < TimeSpan.FromSeconds(15), $"the worker took {killed.Elapsed.TotalSeconds:0.0} s to give the plan up");
        await Task.Delay(1500, TestContext.Current.CancellationToken);
        Assert.False(keep.Process.HasExited, keep.Stderr);
    }

    /// <summary>Local worker processes (of a group the tool made up, local-…) this machine still runs.</summary>
    private static List<int> WorkerProcesses() =>
        [.. Directory.GetDirectories("/proc").Select(d => int.TryParse(Path.GetFileName(d), out var pid) ? pid : -1).Where(pid => pid > 0)
            .Where(pid =>
            {
                try
                {
                    var cmdline = File.ReadAllText($"/proc/{pid}/cmdline").Split('\0');
                    return cmdline.Contains("worker") && cmdline.SkipWhile(a => a != "--group").Skip(1).FirstOrDefault() is { } group
                        && group.StartsWith("local-", StringComparison.Ordinal);
                }
                catch (IOException)
                {
                    return false;
                }
            })];
}
