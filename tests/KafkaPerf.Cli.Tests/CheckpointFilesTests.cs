using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli.Tests;

/// <summary>The checkpoint files behind a real runner: after every run the CSV has its row and the JSON all runs so far.</summary>
public sealed class CheckpointFilesTests : IDisposable
{
    private readonly DirectoryInfo _root = Directory.CreateTempSubdirectory("kafkaperf-checkpoints-");

    private static BenchmarkPlan Plan() => new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce)
        .MessageCounts(1_000).PayloadSizes(10).Repeat(3).Build();

    private static BenchmarkRunner Runner(IResultSink sink) =>
        new(new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions())]), ClusterConnection.None) { Checkpoints = sink };

    [Fact]
    public async Task EveryRun_IsInTheFilesBeforeTheNextOneStarts()
    {
        var output = Path.Combine(_root.FullName, "out");
        var checkpoints = new CheckpointFiles(output, "kafkaperf-test", ["csv", "json", "md"], TextWriter.Null);
        var seen = new List<(int JsonRuns, bool InProgress, int CsvRows)>();
        var sink = new AfterEach(checkpoints, () =>
        {
            var json = ResultJson.Read(Path.Combine(output, "kafkaperf-test.json"));
            seen.Add((json.Runs.Count, json.InProgress, File.ReadAllLines(Path.Combine(output, "kafkaperf-test.csv")).Length - 1));
        });

        var result = await Runner(sink).RunAsync(Plan(), cancellationToken: TestContext.Current.CancellationToken);

        Assert.Equal([(1, true, 1), (2, true, 2), (3, true, 3), (4, true, 4)], seen);
        Assert.Equal((output, "kafkaperf-test"), checkpoints.Close());
        Assert.False(result.InProgress);
        // The appended rows are the rows the final export writes.
        using var final = new StringWriter();
        DefaultExporters.Csv.Export(result, final);
        Assert.Equal(final.ToString(), File.ReadAllText(Path.Combine(output, "kafkaperf-test.csv")));
    }

    [Fact]
    public async Task EveryRun_AppendedBesideAJsonWrittenOnce_ReadAsOneResultAndRemovedAtTheEnd()
    {
        var output = Path.Combine(_root.FullName, "out");
        var checkpoints = new CheckpointFiles(output, "kafkaperf-test", ["csv", "md"], TextWriter.Null);
        var json = Path.Combine(output, "kafkaperf-test.json");
        var lines = Path.Combine(output, "kafkaperf-test.runs.jsonl");
        var jsonTexts = new List<string>();
        var sink = new AfterEach(checkpoints, () => jsonTexts.Add(File.ReadAllText(json)));

        var result = await Runner(sink).RunAsync(Plan(), cancellationToken: TestContext.Current.CancellationToken);

        // The JSON is what the first run's start wrote; the runs are the lines', one per run.
        Assert.Single(jsonTexts.Distinct());
        Assert.Empty(ResultJson.Parse(jsonTexts[0], "checkpoint").Runs);
        Assert.Equal(result.Runs.Count, File.ReadAllLines(lines).Length);
        var read = ResultJson.Read(json);
        Assert.True(read.InProgress);
        Assert.Equal(result.Runs.Select(r => r.Sequence), read.Runs.Select(r => r.Sequence));
        Assert.Equal(result.Cells.Select(c => c.MessagesPerSecond.Median), read.Cells.Select(c => c.MessagesPerSecond.Median));
        Assert.Equal(result.Clients.Select(c => c.LibraryVersion), read.Clients.Select(c => c.LibraryVersion));

        // A line cut short by a kill is not read; the runs before it are.
        File.AppendAllText(lines, "{\"finishedAtUtc\":\"2026-11-27T00:00:00+00:00\",\"runs\":[{\"seq");
        Assert.Equal(result.Runs.Count, ResultJson.Read(json).Runs.Count);

        checkpoints.Close();
        checkpoints.RemoveUnrequested();
        Assert.False(File.Exists(lines));
        Assert.False(File.Exists(json));
    }

    [Fact]
    public void BaseName_TakenByAnEarlierResult_NextOneIsUsed()
    {
        File.WriteAllText(Path.Combine(_root.FullName, "kafkaperf-x.md"), "earlier");
        File.WriteAllText(Path.Combine(_root.FullName, "kafkaperf-x-2.json"), "{}");
        var checkpoints = new CheckpointFiles(_root.FullName, "kafkaperf-x", ["csv", "json"], TextWriter.Null);

        checkpoints.OnRunStarting(Run(1), () => Empty(inProgress: true));

        Assert.Equal("kafkaperf-x-3", checkpoints.BaseName);
        Assert.Equal("earlier", File.ReadAllText(Path.Combine(_root.FullName, "kafkaperf-x.md")));
        Assert.Equal("{}", File.ReadAllText(Path.Combine(_root.FullName, "kafkaperf-x-2.json")));
        Assert.True(ResultJson.Read(Path.Combine(_root.FullName, "kafkaperf-x-3.json")).InProgress);
    }

    [Fact]
    public async Task FolderRemovedMidPlan_OneLineThenEveryRunInTheFallbackFolder()
    {
        var output = Path.Combine(_root.FullName, "out");
        var fallback = Path.Combine(_root.FullName, "fallback");
        var errors = new StringWriter();
        var checkpoints = new CheckpointFiles(output, "kafkaperf-test", ["csv", "json"], errors, fallback);
        int completed = 0;
        var sink = new AfterEach(checkpoints, () =>
        {
            if (++completed == 1) Directory.Delete(output, recursive: true);
        });

        var result = await Runner(sink).RunAsync(Plan(), cancellationToken: TestContext.Current.CancellationToken);

        var line = Assert.Single(errors.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"kafkaperf: the results can no longer be written to '{output}' (", line, StringComparison.Ordinal);
        Assert.EndsWith($"they are saved in '{fallback}' as kafkaperf-test.* from now on.", line, StringComparison.Ordinal);
        Assert.Equal((fallback, "kafkaperf-test"), checkpoints.Close());
        Assert.Equal(result.Runs.Count, ResultJson.Read(Path.Combine(fallback, "kafkaperf-test.json")).Runs.Count);
        Assert.Equal(result.Runs.Count + 1, File.ReadAllLines(Path.Combine(fallback, "kafkaperf-test.csv")).Length);
    }

    [Fact]
    public void WriteInterrupted_MarksTheRunInProgressCancelledAndTakesNoLaterCheckpoint()
    {
        var checkpoints = new CheckpointFiles(_root.FullName, "kafkaperf-test", ["csv", "json"], TextWriter.Null);
        checkpoints.OnRunStarting(Run(1), () => Empty(inProgress: true));
        checkpoints.OnRunCompleted(new ResultIncrement([BenchmarkRunner.Unfinished(Run(1), "first")], Empty(inProgress: true)));
        checkpoints.OnRunStarting(Run(2), () => throw new InvalidOperationException("not asked again"));

        var saved = checkpoints.WriteInterrupted();
        checkpoints.OnRunCompleted(new ResultIncrement([], Empty(inProgress: true)));

        Assert.Equal(Path.Combine(_root.FullName, "kafkaperf-test.json"), saved);
        var json = ResultJson.Read(saved!);
        Assert.True(json.Cancelled);
        Assert.False(json.InProgress);
        Assert.Equal(["first", BenchmarkRunner.CancelledRunError], json.Runs.Select(r => r.Error));
        Assert.Equal(3, File.ReadAllLines(Path.Combine(_root.FullName, "kafkaperf-test.csv")).Length);
        Assert.Null(checkpoints.WriteInterrupted());
    }

    private static RunDescriptor Run(int sequence) =>
        new(sequence, 3, Plan().Cells().First(), "inmemory", sequence, $"topic-{sequence}");

    private static BenchmarkResult Empty(bool inProgress)
    {
        var plan = Plan();
        return new BenchmarkResult
        {
            StartedAtUtc = DateTimeOffset.UnixEpoch,
            FinishedAtUtc = DateTimeOffset.UnixEpoch,
            Environment = EnvironmentInfo.Capture(ClusterConnection.None),
            Plan = plan,
            Clients = [],
            Runs = [],
            Cells = [],
            Comparisons = [],
            Warnings = [],
            InProgress = inProgress,
        };
    }

    public void Dispose() => _root.Delete(recursive: true);

    /// <summary>Passes everything on, then looks at the files.</summary>
    private sealed class AfterEach(CheckpointFiles inner, Action check) : IResultSink
    {
        public void OnRunStarting(RunDescriptor run, Func<BenchmarkResult> soFar) => inner.OnRunStarting(run, soFar);

        public void OnRunCompleted(ResultIncrement increment)
        {
            inner.OnRunCompleted(increment);
            check();
        }
    }
}
