using KafkaPerf.Clients;
using KafkaPerf.Core.Tests.Reporting;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Faults;

/// <summary>A result whose runs had faults, in every report: the Failover section, the faults CSV, the shaded window of
/// the time-series charts, the progress line.</summary>
public sealed class FaultReportTests
{
    [Fact]
    public void Markdown_RunsWithFaults_FailoverSectionWithMediansPerClientAndEveryRun()
    {
        using var writer = new StringWriter { NewLine = "\n" };

        DefaultExporters.Markdown.Export(Result(), writer);

        var text = writer.ToString();
        Assert.Contains("## Failover", text, StringComparison.Ordinal);
        // confluent's three runs: elections 9, 10, 11 s, first acks 10, 12, 13 s, one run never recovered.
        var row = text.Split('\n').Single(l => l.Contains("| kill:leader@10s | confluent | 3 |", StringComparison.Ordinal));
        Assert.StartsWith("| produce | acks=all | 1 000 | 1000 | kill:leader@10s | confluent | 3 | 10.000 | 10.000 | 12.000 | 2.000 | 20.000 (1 not by the end) |", row, StringComparison.Ordinal);
        Assert.Contains("Local: Message timed out: 2", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_RunsWithFaults_AFaultsFileWithOneRowPerRunAndFault()
    {
        var result = Result();
        var companion = Assert.Single(DefaultExporters.Csv.CompanionFiles(result), f => f.Suffix == "faults");
        using var writer = new StringWriter { NewLine = "\n" };

        companion.Write(writer);

        var lines = writer.ToString().TrimEnd().Split('\n');
        Assert.Equal(1 + 6, lines.Length);
        Assert.StartsWith("sequence,client,scenario,payloadBytes,variant,offeredRate,repetition,succeeded,fault,did,node,firedAtSeconds", lines[0], StringComparison.Ordinal);
        Assert.Contains(",kill:leader@10s,SIGKILL node 2,2,12,", lines[1], StringComparison.Ordinal);
    }

    [Fact]
    public void TimeSeriesCharts_RunsWithFaults_ShadeTheFaultWindowAndSayWhy()
    {
        var charts = ReportCharts.For(Result()).Where(c => c.Kind == ChartKind.TimeSeries).ToList();

        Assert.NotEmpty(charts);
        Assert.All(charts, c => Assert.Contains("fault-window", c.Svg, StringComparison.Ordinal));
        // The fault as --fault spelled it (its window's tooltip), and in the axis' time on the client's row.
        Assert.All(charts, c => Assert.Contains("--fault kill:leader@10s", c.Svg, StringComparison.Ordinal));
        Assert.All(charts, c => Assert.Contains("kill:leader at 12.0 s (10.0 s into the measured part)", c.Svg, StringComparison.Ordinal));
    }

    [Fact]
    public void RateChart_AWarmupLongerThanTwoIntervals_StillDrawsEveryMeasuredInterval()
    {
        // The warm-up is one interval of its own length (3 s here): the rate lines once measured every later interval
        // against it, found them all "short" and drew one point per client.
        var result = Result(warmupSeconds: 3);

        var rate = ReportCharts.For(result).Single(c => c.Name.StartsWith("rate-", StringComparison.Ordinal));

        var confluent = rate.Svg.Split('\n').First(l => l.Contains("<polyline", StringComparison.Ordinal));
        Assert.True(confluent.Split(',').Length > 25, confluent);
    }

    [Fact]
    public void Describe_AFault_OneLineWithTheClustersAndTheClientsPart()
    {
        var line = FaultTables.Describe(Fault(election: 9.5, firstAck: 10.25, recovery: 12));

        Assert.Equal("kill:leader@10s: SIGKILL node 2 at 12.000 s; new leader 3 after 9.500 s; in-sync replicas 1,2,3 → 1,3 after 9.500 s; "
            + "first ack after 10.250 s (0.750 s after the election); p99 back within 2× after 12.000 s; peak 10300.0 ms; lost 0, dup 0, "
            + "failed Local: Message timed out: 2; healed in 6.500 s", line);
        Assert.DoesNotContain('\n', line);
    }

    private static BenchmarkResult Result(int warmupSeconds = 0)
    {
        var plan = new BenchmarkPlanBuilder().Clients("confluent", "java").Scenarios(ScenarioKind.Produce).PayloadSizes(1_000).Rates(1_000)
            .Duration(TimeSpan.FromSeconds(30)).Acks(AcksMode.All).Repeat(3).Faults(["kill:leader@10s"]).Build();
        var runs = new List<RunRecord>();
        int sequence = 0;
        foreach (var (client, elections, acks, recoveries) in new[]
        {
            ("confluent", new[] { 9.0, 10, 11 }, new[] { 10.0, 12, 13 }, new double?[] { 20, null, 18 }),
            ("java", new[] { 9.0, 9, 9 }, new[] { 9.5, 9.5, 9.5 }, new double?[] { 11, 11, 11 }),
        })
        {
            for (int i = 0; i < 3; i++)
            {
                runs.Add(new RunRecord
                {
                    Sequence = ++sequence, Client = client, Scenario = ScenarioKind.Produce, MessageCount = 30_000, PayloadBytes = 1_000,
                    Variant = "acks=all", Repetition = i + 1, Topic = $"t{sequence}", ElapsedSeconds = 31, MessagesPerSecond = 967, MegabytesPerSecond = 0.967, Sent = 30_000,
                    Delivered = 30_000, OfferedRate = 1_000, AchievedRate = 1_000,
                    Intervals = [.. Enumerable.Range(0, 34).Select(s => new IntervalRecord
                    {
                        Index = s, StartSeconds = s == 0 ? 0 : s + Math.Max(0, warmupSeconds - 1), LengthSeconds = s == 0 && warmupSeconds > 0 ? warmupSeconds : 1,
                        Warmup = warmupSeconds > 0 ? s == 0 : s < 2, Sent = 1_000, Acknowledged = s is > 12 and < 22 ? 0 : 1_000,
                        Consumed = 0, MegabytesPerSecond = 1, InFlight = 0,
                        ResponseTime = new IntervalLatency(1_000, 2_000, s is >= 12 and < 24 ? 9_000_000 : 5_000, 6_000, 10_300_000),
                    })],
                    Faults = [Fault(elections[i], acks[i], recoveries[i])],
                });
            }
        }
        return ReportSamples.Assemble(plan, runs);
    }

    private static FaultRecord Fault(double election, double firstAck, double? recovery) => new()
    {
        Fault = "kill:leader@10s", Did = "SIGKILL node 2", Node = 2, FiredAtSeconds = 12, LeaderBefore = 2, NewLeader = 3, ElectionSeconds = election,
        InSyncBefore = "1,2,3", InSyncAfter = "1,3", InSyncChangeSeconds = election, FirstAckAfterFaultSeconds = firstAck,
        FirstAckAfterElectionSeconds = firstAck - election, BaselineP99Micros = 5_000, RecoverySeconds = recovery, PeakResponseMicros = 10_300_000,
        SentInWindow = (long)(firstAck * 1_000), FailedByError = new Dictionary<string, long> { ["Local: Message timed out"] = 2 }, Lost = 0, Duplicated = 0,
        Durability = "acks=all, idempotence off", HealSeconds = 6.5,
    };
}
