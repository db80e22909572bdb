using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.Data.Sqlite;

namespace KafkaPerf.Cli.Tests;

/// <summary><c>--store</c>, <c>history</c> and <c>compare --against-history</c>, as a CI job uses them.</summary>
public sealed class HistoryCliTests : IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("kafkaperf-history-cli-");

    private string Db => Path.Combine(_folder.FullName, "results.db");

    public void Dispose() => _folder.Delete(recursive: true);

    [Fact]
    public async Task Run_KeepsItsResultInTheStore_HistoryListsIt_AndTheGateJudgesTheNextAgainstIt()
    {
        var output = Path.Combine(_folder.FullName, "out");
        for (int i = 0; i < 4; i++)
        {
            // The last run names its store by the variable, as a CI job's environment does.
            var environment = new Dictionary<string, string?> { ["KAFKAPERF_GIT_COMMIT"] = $"c0ffee{i}", ["KAFKAPERF_GIT_BRANCH"] = "main", ["KAFKAPERF_STORE"] = i == 3 ? Db : null };
            string[] store = i == 3 ? [] : ["--store", Db];
            var (exit, _, stderr) = await CliProcess.RunAsync(environment, ["run", "--clients", "inmemory", "--scenarios", "produce", "--messages", "20000", "--sizes", "100",
                "--repeat", "3", "--format", "json", "--output", output, "--quiet", "--label", "main", .. store]);
            Assert.True(exit == 0, stderr);
            Assert.Contains($"stored as result {i + 1} in {Db} (label 'main')", stderr, StringComparison.Ordinal);
        }

        var (listed, table, listErr) = await CliProcess.RunAsync(null, "history", "list", "--store", Db, "--commit", "c0ffee3");
        var last = Directory.GetFiles(output, "*.json").Order(StringComparer.Ordinal).Last();
        // The runs take a millisecond or so each: their speed is the machine's moment (a CI run beside another test
        // assembly saw the candidate 4.4 times its history), so the gate is given its largest allowance, 999 % - this
        // test is about storing and judging, not about this machine's speed; the gate's verdicts are tested on fixed
        // results below.
        var (judged, verdicts, judgeErr) = await CliProcess.RunAsync(null, "compare", last, "--against-history", "10", "--store", Db, "--fail-if-slower", "999");

        Assert.Equal(0, listed);
        Assert.Contains("| 4 | ", table, StringComparison.Ordinal);
        Assert.Contains("| main | c0ffee3 | main | inmemory | 1 |", table, StringComparison.Ordinal);
        Assert.Contains("1 stored result(s)", listErr, StringComparison.Ordinal);
        Assert.True(judged == 0, verdicts + judgeErr);
        // The candidate was stored itself; it is not its own history.
        Assert.Contains("| inmemory | produce | defaults | 20000 | 100 | – | elapsed s | 3 |", verdicts, StringComparison.Ordinal);
        Assert.Contains("no cell is slower than its history by more than 999 % with 95 % confidence (1 judged)", judgeErr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Import_Trend_AndTheGate_PassAnAaResult_AndFailAFifteenPercentSlowerOne()
    {
        var files = Directory.CreateDirectory(Path.Combine(_folder.FullName, "results"));
        for (int i = 0; i < 8; i++) File.WriteAllText(Path.Combine(files.FullName, $"r{i}.json"), Variant(i, 1.0));
        File.WriteAllText(Path.Combine(files.FullName, "other.json"), "{\"not\": \"a result\"}");
        var same = Path.Combine(_folder.FullName, "same.json");
        var slower = Path.Combine(_folder.FullName, "slower.json");
        File.WriteAllText(same, Variant(8, 1.0));
        File.WriteAllText(slower, Variant(8, 1.15));

        var (imported, _, importErr) = await CliProcess.RunAsync(null, "history", "import", files.FullName, "--store", Db);
        var (_, _, againErr) = await CliProcess.RunAsync(null, "history", "import", files.FullName, "--store", Db);
        var html = Path.Combine(_folder.FullName, "trend.html");
        var (trended, trend, trendErr) = await CliProcess.RunAsync(null, "history", "trend", "--store", Db, "--scenario", "produce", "--html", html);
        var (passes, _, passErr) = await CliProcess.RunAsync(null, "compare", same, "--against-history", "8", "--store", Db, "--fail-if-slower", "5");
        var (fails, _, failErr) = await CliProcess.RunAsync(null, "compare", slower, "--against-history", "8", "--store", Db, "--fail-if-slower", "5");

        Assert.Equal(0, imported);
        Assert.Contains("imported 8 result(s)", importErr, StringComparison.Ordinal);
        Assert.Contains("1 file(s) were not finished KafkaPerf results", importErr, StringComparison.Ordinal);
        Assert.Contains("imported 0 result(s)", againErr, StringComparison.Ordinal);
        Assert.Contains("8 were stored already", againErr, StringComparison.Ordinal);
        Assert.True(trended == 0, trendErr);
        Assert.Contains("within its history", trend, StringComparison.Ordinal);
        Assert.DoesNotContain("| consume", trend, StringComparison.Ordinal);
        var page = File.ReadAllText(html);
        Assert.True(page.Split("<svg").Length - 1 >= 1, page[..200]);
        Assert.True(passes == 0, passErr);
        Assert.Equal(4, fails);
        Assert.Contains("slower than its last 8 results by 15.", failErr, StringComparison.Ordinal);
        Assert.Contains("beyond the 5 % allowed", failErr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AStoreThatCannotBeHad_EndsInOneLine_BeforeAnythingRuns_AndLeavesNothing()
    {
        var connection = Path.Combine(_folder.FullName, "store.conn");
        File.WriteAllText(connection, "Host=127.0.0.1;Port=1;Username=ci;Password=hunter2;Database=perf");
        // Missing parents too: what the command created for its output goes again.
        var output = Path.Combine(_folder.FullName, "never", "made", "out");

        var (exit, _, stderr) = await CliProcess.RunAsync(null, "run", "--clients", "inmemory", "--messages", "100", "--output", output, "--store", "postgres:" + connection, "--store-timeout", "2s");
        var (typed, _, typedErr) = await CliProcess.RunAsync(null, "run", "--clients", "inmemory", "--messages", "100", "--output", output, "--store", "Host=db;Password=hunter2;Database=perf");
        var (labelOnly, _, labelErr) = await CliProcess.RunAsync(null, "run", "--clients", "inmemory", "--messages", "100", "--output", output, "--label", "main");

        Assert.Equal(2, exit);
        Assert.StartsWith("kafkaperf: The results store PostgreSQL 127.0.0.1:1/perf cannot be used (to create or migrate it: ", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        Assert.Equal(2, typed);
        Assert.Contains("--store looks like a connection string", typedErr, StringComparison.Ordinal);
        Assert.DoesNotContain("hunter2", stderr + typedErr, StringComparison.Ordinal);
        Assert.Equal(2, labelOnly);
        Assert.Contains("--label is kept with a stored result: give --store", labelErr, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(_folder.FullName, "never")));
    }

    [Fact]
    public async Task AStoreLockedWhenTheResultArrives_EndsInOneLine_AndTheFilesAreKept()
    {
        var output = Path.Combine(_folder.FullName, "out");
        using var run = CliProcess.Start(null, "run", "--clients", "inmemory", "--scenarios", "produce", "--sizes", "100", "--rate", "1000", "--duration", "6s",
            "--repeat", "1", "--warmup", "0s", "--format", "json", "--output", output, "--store", Db, "--store-timeout", "1s");
        // The store is created before the plan starts: once it has its schema, the run is under way.
        await using var holder = new SqliteConnection($"Data Source={Db};Pooling=False");
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            Assert.True(DateTime.UtcNow < deadline, run.Stderr);
            if (File.Exists(Db))
            {
                try
                {
                    if (holder.State != System.Data.ConnectionState.Open) await holder.OpenAsync(TestContext.Current.CancellationToken);
                    await using var check = holder.CreateCommand();
                    check.CommandText = "SELECT MAX(version) FROM kafkaperf_schema";
                    if (await check.ExecuteScalarAsync(TestContext.Current.CancellationToken) is long) break;
                }
                catch (SqliteException)
                {
                }
            }
            await Task.Delay(100, TestContext.Current.CancellationToken);
        }
        await using (var exclusive = holder.CreateCommand())
        {
            exclusive.CommandText = "BEGIN EXCLUSIVE";
            await exclusive.ExecuteNonQueryAsync(TestContext.Current.CancellationToken);
        }

        Assert.True(run.Process.WaitForExit(TimeSpan.FromSeconds(90)), run.Stderr);

        Assert.Equal(5, run.Process.ExitCode);
        var json = Assert.Single(Directory.GetFiles(output, "*.json"));
        Assert.Contains($"kafkaperf: The results store {Db} stayed locked by another process for 1 s (to write to it): let that process end, or give a longer --store-timeout. The result's files are in '{output}': `dotnet kafkaperf history import {output}` with the same --store adds them later.", run.Stderr, StringComparison.Ordinal);
        Assert.True(JsonDocument.Parse(File.ReadAllText(json)).RootElement.GetProperty("runs").GetArrayLength() > 0);
    }

    /// <summary>The repository's burst result, started <paramref name="index"/> hours later, its runs' elapsed times 2 %
    /// apart (seeded) and times <paramref name="factor"/>.</summary>
    private static string Variant(int index, double factor)
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(Path.Combine(root, "KafkaPerf.sln"))) root = Path.GetDirectoryName(root)!;
        var node = JsonNode.Parse(File.ReadAllText(Path.Combine(root, "tests", "KafkaPerf.Core.Tests", "Reporting", "Expected", "result.json")))!;
        var random = new Random(1000 + index);
        node["startedAtUtc"] = DateTimeOffset.Parse("2026-11-01T00:00:00Z", System.Globalization.CultureInfo.InvariantCulture).AddHours(index).ToString("o", System.Globalization.CultureInfo.InvariantCulture);
        foreach (var run in node["runs"]!.AsArray())
        {
            // A failed run's time is "NaN": it stays.
            if (run!["elapsedSeconds"]!.GetValueKind() != JsonValueKind.Number) continue;
            run["elapsedSeconds"] = run["elapsedSeconds"]!.GetValue<double>() * factor * (1 + ((random.NextDouble() - 0.5) * 0.04));
        }
        return node.ToJsonString();
    }
}
