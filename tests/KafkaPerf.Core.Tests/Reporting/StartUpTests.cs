using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>The wait for the first record apart from the rate after it, and the caveat of a verdict that the wait made, on
/// hand-made numbers.</summary>
public class StartUpTests
{
    private const long Messages = 10_000;

    // The main command's confluent consume: about 100 ms of its 116-132 ms before the first record.
    private static readonly double[] WaitingElapsed = [0.116, 0.120, 0.124, 0.128, 0.132];
    private static readonly double[] WaitingFirst = [0.100, 0.101, 0.102, 0.101, 0.100];
    private static readonly double[] PromptElapsed = [0.055, 0.058, 0.060, 0.062, 0.065];
    private static readonly double[] PromptFirst = [0.003, 0.003, 0.003, 0.003, 0.003];

    [Fact]
    public void Summarized_ConsumeWithItsFirstRecord_RateAfterItIsTheOtherRecordsOverTheTimeFromFirstToLast()
    {
        var run = new RunRecord { Scenario = ScenarioKind.Consume, MessageCount = 1_001, ElapsedSeconds = 0.5, FirstRecordSeconds = 0.1 }.Summarized();

        Assert.Equal(0.1, run.FirstRecordSeconds);
        Assert.Equal(1_000 / 0.4, run.MessagesPerSecondAfterFirst!.Value, 6);
        // The run's own figures stay what they were: the first record's wait is part of them.
        Assert.Equal(0.5, run.ElapsedSeconds);
        Assert.Equal(1_001 / 0.5, run.MessagesPerSecond, 6);
    }

    [Fact]
    public void Summarized_FailedRunOrProduce_NoFirstRecordNorRateAfterIt()
    {
        var failed = new RunRecord { Scenario = ScenarioKind.Consume, MessageCount = 100, ElapsedSeconds = 0.5, FirstRecordSeconds = 0.1, Lost = 1 }.Summarized();
        var produce = new RunRecord { Scenario = ScenarioKind.Produce, MessageCount = 100, ElapsedSeconds = 0.5 }.Summarized();
        var single = new RunRecord { Scenario = ScenarioKind.Consume, MessageCount = 1, ElapsedSeconds = 0.5, FirstRecordSeconds = 0.5 }.Summarized();

        Assert.Null(failed.FirstRecordSeconds);
        Assert.Null(failed.MessagesPerSecondAfterFirst);
        Assert.Null(produce.FirstRecordSeconds);
        Assert.Null(produce.MessagesPerSecondAfterFirst);
        Assert.Null(single.MessagesPerSecondAfterFirst);
    }

    [Fact]
    public void Compare_DifferenceMostlyTheFirstRecordsWait_VerdictCarriesTheCaveatWithBothWaitsAndTheRateAfter()
    {
        var (comparison, java, confluent) = CompareCells(("java", PromptElapsed, PromptFirst), ("confluent", WaitingElapsed, WaitingFirst));

        Assert.Equal(Verdict.Faster, comparison.ElapsedSeconds.Verdict);
        // (0.003 - 0.101) / (0.060 - 0.124): the waits differ by more than the whole runs do.
        Assert.Equal(0.098 / 0.064, comparison.StartUpShare!.Value, 6);
        Assert.True(comparison.MostlyStartUp);
        // After the first record java is the slower one: 9 999 records in 0.057 s against 0.022 s (the medians).
        Assert.Equal("mostly start-up: first record java 3.0 ms, confluent 101.0 ms; after it java's msg/s 38.60 % of confluent's", StartUpTables.Caveat(java, confluent));
    }

    [Fact]
    public void Compare_DifferenceIsTheRateAfterTheFirstRecord_NoCaveat()
    {
        double[] first = [0.004, 0.004, 0.004, 0.004, 0.004];

        var comparison = Compare(("java", PromptElapsed, PromptFirst), ("confluent", WaitingElapsed, first));

        Assert.Equal(Verdict.Faster, comparison.ElapsedSeconds.Verdict);
        Assert.Equal(0.001 / 0.064, comparison.StartUpShare!.Value, 6);
        Assert.False(comparison.MostlyStartUp);
    }

    [Theory]
    [InlineData(0.053, true)]
    [InlineData(0.049, false)]
    public void Compare_ShareAroundHalf_CaveatFromHalfOn(double baselineFirst, bool caveat)
    {
        double[] baseline = [0.196, 0.198, 0.200, 0.202, 0.204];
        double[] candidate = [0.096, 0.098, 0.100, 0.102, 0.104];

        var comparison = Compare(("b", candidate, [.. candidate.Select(_ => 0.001)]), ("a", baseline, [.. baseline.Select(_ => baselineFirst)]));

        Assert.Equal(Verdict.Faster, comparison.ElapsedSeconds.Verdict);
        Assert.Equal((baselineFirst - 0.001) / 0.1, comparison.StartUpShare!.Value, 6);
        Assert.Equal(caveat, comparison.MostlyStartUp);
    }

    [Fact]
    public void Compare_OnParWhateverTheWaits_NoCaveat()
    {
        double[] baseline = [0.100, 0.101, 0.102, 0.103, 0.104];
        double[] candidate = [0.1005, 0.1015, 0.1025, 0.1035, 0.1045];

        var comparison = Compare(("b", candidate, [.. candidate.Select(_ => 0.0505)]), ("a", baseline, [.. baseline.Select(_ => 0.050)]));

        Assert.Equal(Verdict.OnPar, comparison.ElapsedSeconds.Verdict);
        Assert.Equal(1.0, comparison.StartUpShare!.Value, 6);
        Assert.False(comparison.MostlyStartUp);
    }

    [Fact]
    public void Compare_FasterDespiteTheLongerWait_NoCaveat()
    {
        double[] first = [0.030, 0.030, 0.030, 0.030, 0.030];

        var comparison = Compare(("java", PromptElapsed, first), ("confluent", WaitingElapsed, PromptFirst));

        Assert.Equal(Verdict.Faster, comparison.ElapsedSeconds.Verdict);
        Assert.True(comparison.StartUpShare < 0);
        Assert.False(comparison.MostlyStartUp);
    }

    [Fact]
    public void Compare_ProduceCell_NoShareNorCaveat()
    {
        var comparison = Compare(("java", PromptElapsed, null), ("confluent", WaitingElapsed, null), ScenarioKind.Produce);

        Assert.Equal(Verdict.Faster, comparison.ElapsedSeconds.Verdict);
        Assert.Null(comparison.StartUpShare);
        Assert.False(comparison.MostlyStartUp);
    }

    [Fact]
    public void Document_VerdictMostlyStartUp_TheVerdictRowSaysSoAndATableShowsTheWaitApartFromTheRate()
    {
        var result = Sample();

        var document = ResultTables.Document(result);
        var json = ResultJson.Write(result);

        var verdicts = document.Sections.Single(s => s.Title == "Consume · defaults — java vs confluent").Blocks.OfType<ReportTable>().Last();
        var row = verdicts.Rows.Single(r => r[1] == "100");
        Assert.StartsWith("java faster (mostly start-up: first record java 3.0 ms, confluent 100.0 ms; after it java's msg/s ", row[^1], StringComparison.Ordinal);
        var produce = document.Sections.Single(s => s.Title == "Produce · defaults — java vs confluent").Blocks.OfType<ReportTable>().Last();
        Assert.All(produce.Rows, r => Assert.DoesNotContain("start-up", r[^1], StringComparison.Ordinal));
        var table = Assert.Single(document.Sections.Single(s => s.Title == "Start-up and rate").Blocks.OfType<ReportTable>());
        // Consume and roundtrip cells only: 3 clients × 2 scenarios × 3 sizes.
        Assert.Equal(18, table.Rows.Count);
        Assert.Contains(table.Rows, r => r[0] == "consume" && r[2] == "confluent" && r[4] == "100" && r[7] == "100.00");
        Assert.Contains("\"mostlyStartUp\": true", json, StringComparison.Ordinal);
        Assert.Contains("\"startUpShare\": ", json, StringComparison.Ordinal);
        Assert.Contains("\"firstRecordSeconds\": {", json, StringComparison.Ordinal);
        Assert.Contains("\"messagesPerSecondAfterFirst\": {", json, StringComparison.Ordinal);
    }

    /// <summary>The realistic sample whose consume and roundtrip runs wait before their first record: 100 ms for confluent
    /// (librdkafka's first fetch), 3 ms for the others, added to their elapsed times.</summary>
    internal static BenchmarkResult Sample()
    {
        var realistic = ReportSamples.Realistic();
        var runs = realistic.Runs.Select(r =>
        {
            if (r.Scenario == ScenarioKind.Produce || double.IsNaN(r.ElapsedSeconds)) return r;
            double wait = r.Client == "confluent" ? 0.1 : 0.003;
            return (r with { ElapsedSeconds = r.ElapsedSeconds + wait, FirstRecordSeconds = wait }).Summarized();
        }).ToList();
        return ReportSamples.Assemble(realistic.Plan, runs);
    }

    /// <summary>A candidate's runs against a baseline's in one cell, summed up and compared as a result's are.</summary>
    private static CellComparison Compare((string Client, double[] Elapsed, double[]? First) candidate, (string Client, double[] Elapsed, double[]? First) baseline,
        ScenarioKind scenario = ScenarioKind.Consume) => CompareCells(candidate, baseline, scenario).Comparison;

    private static (CellComparison Comparison, CellResult Candidate, CellResult Baseline) CompareCells((string Client, double[] Elapsed, double[]? First) candidate,
        (string Client, double[] Elapsed, double[]? First) baseline, ScenarioKind scenario = ScenarioKind.Consume)
    {
        var plan = new BenchmarkPlanBuilder().Clients(baseline.Client, candidate.Client).Scenarios(scenario).MessageCounts(Messages).PayloadSizes(100)
            .Repeat(baseline.Elapsed.Length).Build();
        var cell = plan.Cells().Single();
        var runs = new[] { baseline, candidate }.SelectMany(side => side.Elapsed.Select((elapsed, i) => new RunRecord
        {
            Client = side.Client, Scenario = scenario, MessageCount = Messages, PayloadBytes = 100, Variant = cell.Variant, Repetition = i + 1,
            ElapsedSeconds = elapsed, FirstRecordSeconds = side.First?[i],
        }.Summarized())).ToList();
        var cells = ResultSummarizer.Cells(plan, runs);
        return (Assert.Single(ResultSummarizer.Comparisons(plan, cells)), cells.Single(c => c.Client == candidate.Client), cells.Single(c => c.Client == baseline.Client));
    }
}
