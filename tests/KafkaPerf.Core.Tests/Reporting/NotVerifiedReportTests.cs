using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.History;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>A run whose read stopped short of its records is said to be <em>not verified</em> wherever results are shown:
/// the cell tables, the failed runs, the CSV, the JSON and comparisons - never as records lost.</summary>
public class NotVerifiedReportTests
{
    private const string Reason = "40 acknowledged records not read: nothing new for 30 s; read to offset 9960 of 9999 on partition 0 in 31 s";

    [Fact]
    public void Reports_ARunNotVerified_SayItWhereLostWouldBe()
    {
        var result = WithOneRunNotVerified(ReportSamples.Realistic(repeat: 3, clients: ["confluent", "java"], sizes: [100]));

        var cell = result.Cells.Single(c => c is { Client: "confluent", Scenario: ScenarioKind.Consume });
        Assert.Equal((0, 40, 1, 1), (cell.Lost, cell.NotVerified, cell.NotVerifiedRuns, cell.FailedRuns));
        var markdown = Export(result, "md");
        Assert.Contains("| 0 + 40 not verified |", markdown, StringComparison.Ordinal);
        Assert.Contains(Reason, markdown, StringComparison.Ordinal);
        Assert.Contains(Reason, Export(result, "csv"), StringComparison.Ordinal);
        var json = Export(result, "json");
        Assert.Contains("\"notVerifiedReason\": \"" + Reason + "\"", json, StringComparison.Ordinal);
        Assert.Contains("\"notVerifiedRuns\": 1", json, StringComparison.Ordinal);
    }

    [Fact]
    public void Compare_ACandidateWithARunNotVerified_MarksTheCellAndSaysWhy()
    {
        var baseline = ReportSamples.Realistic(repeat: 3, clients: ["confluent", "java"], sizes: [100]);
        var candidate = WithOneRunNotVerified(baseline);

        var comparisons = ResultComparison.Compare(baseline, candidate);
        using var writer = new StringWriter { NewLine = "\n" };
        MarkdownExporter.WriteBlocks(ComparisonTables.Blocks(comparisons), writer);

        var marked = Assert.Single(comparisons, c => c.CandidateNotVerified > 0);
        Assert.Equal(("confluent", ScenarioKind.Consume, 1, 0), (marked.Client, marked.Scenario, marked.CandidateNotVerified, marked.BaselineNotVerified));
        // The run not verified is not compared: the candidate's cell has one run fewer.
        Assert.Equal(marked.BaselineRuns - 1, marked.CandidateRuns);
        Assert.Contains("; 1 candidate run not verified |", writer.ToString(), StringComparison.Ordinal);
        var line = Assert.Single(CellKey.NotVerifiedLines(candidate, "candidate"));
        Assert.Equal($"kafkaperf: confluent consume 10000 × 100 B (defaults): 1 candidate run was not verified and not compared ({Reason}).", line);
        Assert.Empty(CellKey.NotVerifiedLines(baseline, "baseline"));
    }

    /// <summary>The result with confluent's first measured consume run not verified, as a stalled read leaves it.</summary>
    private static BenchmarkResult WithOneRunNotVerified(BenchmarkResult result)
    {
        var open = result.Runs.First(r => r is { Client: "confluent", Scenario: ScenarioKind.Consume, IsWarmup: false });
        var runs = result.Runs.Select(r => r != open ? r : r with
        {
            Received = 9_960, NotVerified = 40, NotVerifiedReason = Reason,
            Error = "stalled: 9960 of 10000 records arrived (9960 with duplicates), nothing new for 30 s",
            ElapsedSeconds = double.NaN, MessagesPerSecond = double.NaN, MegabytesPerSecond = double.NaN,
        }).ToList();
        return ReportSamples.Assemble(result.Plan, runs);
    }

    private static string Export(BenchmarkResult result, string format)
    {
        Assert.True(DefaultExporters.TryGet(format, out var exporter));
        using var writer = new StringWriter { NewLine = "\n" };
        exporter.Export(result, writer);
        return writer.ToString();
    }
}
