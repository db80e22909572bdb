using System.Runtime.CompilerServices;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

public class ExporterTests
{
    [Theory]
    [InlineData("csv")]
    [InlineData("json")]
    [InlineData("md")]
    [InlineData("html")]
    public void Export_FixedResult_MatchesCheckedInFile(string format)
    {
        Assert.True(DefaultExporters.TryGet(format, out var exporter));
        using var writer = new StringWriter { NewLine = "\n" };

        exporter.Export(FixedResult(), writer);

        var expectedPath = Path.Combine(SourceFolder(), "Expected", $"result.{exporter.FileExtension}");
        // Set KAFKAPERF_UPDATE_EXPECTED=1 to rewrite the expected files after a deliberate format change, then review the diff.
        if (Environment.GetEnvironmentVariable("KAFKAPERF_UPDATE_EXPECTED") == "1")
            File.WriteAllText(expectedPath, writer.ToString());
        Assert.Equal(File.ReadAllText(expectedPath), writer.ToString());
    }

    [Fact]
    public void DocumentAndJson_AskedForAgain_BuiltOncePerResult()
    {
        var result = FixedResult();

        // The console, the Markdown file and the HTML page share one document; the .json file and the store one text.
        Assert.Same(KafkaPerf.Reporting.Tables.ResultTables.Document(result), KafkaPerf.Reporting.Tables.ResultTables.Document(result));
        Assert.Same(ResultJson.Write(result), ResultJson.Write(result));
        // Another result (even an equal copy) gets its own.
        Assert.NotSame(ResultJson.Write(result), ResultJson.Write(result with { }));
    }

    [Theory]
    [InlineData(new[] { 9 }, "9 partition(s)")]
    [InlineData(new[] { 1, 9 }, "1, 9 partitions (per variant)")]
    public void Markdown_PlanLine_NamesThePartitionsTheVariantsRanWith(int[] partitions, string expected)
    {
        var fixedResult = FixedResult();
        var plan = fixedResult.Plan with { SettingsVariants = [.. partitions.Select(p => ClientSettings.SeedProfile with { Partitions = p })] };
        using var writer = new StringWriter { NewLine = "\n" };

        DefaultExporters.Markdown.Export(fixedResult with { Plan = plan }, writer);

        var line = writer.ToString().Split('\n').Single(l => l.StartsWith("- Plan:", StringComparison.Ordinal));
        Assert.Contains($"random payload, {expected}, replication", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Json_RoundTrip_KeepsRunFieldsUnderTheirDocumentedNames()
    {
        var dir = Directory.CreateTempSubdirectory("kafkaperf-test-");
        try
        {
            var path = Assert.Single(DefaultExporters.Json.ExportToFolder(FixedResult(), dir.FullName, "result"));
            var text = File.ReadAllText(path);
            foreach (var field in new[] { "client", "scenario", "messageCount", "payloadBytes", "elapsedSeconds", "messagesPerSecond", "megabytesPerSecond", "lost", "duplicates" })
                Assert.Contains($"\"{field}\":", text, StringComparison.Ordinal);

            var back = ResultJson.Read(path);

            Assert.Equal(FixedResult().Runs.Count, back.Runs.Count);
            Assert.Equal(FixedResult().Comparisons[0].ElapsedSeconds.MeanRatioPercent, back.Comparisons[0].ElapsedSeconds.MeanRatioPercent, 9);
            Assert.Equal(["result.json"], dir.GetFiles().Select(f => f.Name));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public void WriteAtomically_WriterThrows_LeavesNoFileBehind()
    {
        var dir = Directory.CreateTempSubdirectory("kafkaperf-test-");
        try
        {
            var path = Path.Combine(dir.FullName, "result.csv");

            Assert.Throws<InvalidOperationException>(() =>
                ResultExporterBase.WriteAtomically(path, w => { w.Write("half"); throw new InvalidOperationException("boom"); }));

            Assert.Empty(dir.GetFiles());
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public void ResultJsonRead_MalformedFile_SaysWhatIsWrong()
    {
        var path = Path.GetTempFileName();
        try
        {
            File.WriteAllText(path, "{ not json");
            var ex = Assert.Throws<InvalidDataException>(() => ResultJson.Read(path));
            Assert.Contains("is not a KafkaPerf JSON result", ex.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }

    /// <summary>A result built by hand, so exports are byte-for-byte reproducible.</summary>
    [Fact]
    public void ExportToFolderUnique_SameNameTwice_SecondGetsASuffixAndTheFirstIsUntouched()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-unique-");
        try
        {
            var exporter = new CompositeExporter([DefaultExporters.Csv, DefaultExporters.Json]);
            var first = exporter.ExportToFolderUnique(FixedResult(), folder.FullName, "kafkaperf-20261122-120000");
            var before = File.ReadAllText(first[0]);
            File.WriteAllText(Path.Combine(folder.FullName, "kafkaperf-20261122-120000-2.json"), "someone else's");

            var second = exporter.ExportToFolderUnique(FixedResult(), folder.FullName, "kafkaperf-20261122-120000");

            Assert.Equal(["kafkaperf-20261122-120000.csv", "kafkaperf-20261122-120000.json"], first.Select(Path.GetFileName));
            Assert.Equal(["kafkaperf-20261122-120000-3.csv", "kafkaperf-20261122-120000-3.json"], second.Select(Path.GetFileName));
            Assert.Equal(before, File.ReadAllText(first[0]));
            Assert.Equal("someone else's", File.ReadAllText(Path.Combine(folder.FullName, "kafkaperf-20261122-120000-2.json")));
            Assert.Equal(5, folder.GetFiles().Length);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    internal static BenchmarkResult FixedResult()
    {
        var plan = new BenchmarkPlanBuilder().Clients("confluent", "knet").Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip)
            .MessageCounts(1_000).PayloadSizes(100, 1_000).Repeat(3).Settings(ClientSettings.SeedProfile).Build();
        var runs = new List<RunRecord>();
        int sequence = 0;
        foreach (var cell in plan.Cells())
        {
            foreach (var (client, repetition) in new[] { ("confluent", 0), ("knet", 0) }.Concat(RunOrder.Balanced(plan.Clients, plan.Repeat)))
            {
                sequence++;
                // knet is about 20 % faster on small payloads and on par on large ones; a little noise per repetition.
                double baseSeconds = 0.5 + cell.PayloadBytes / 4000.0;
                double factor = client == "knet" ? (cell.PayloadBytes == 100 ? 0.8 : 1.0) : 1.0;
                double seconds = baseSeconds * factor * (1 + 0.01 * repetition);
                HdrHistogram.LongHistogram? histogram = null;
                if (cell.Scenario == ScenarioKind.Roundtrip)
                {
                    histogram = Histograms.Create();
                    for (int i = 1; i <= 1_000; i++) histogram.RecordValue((long)(i * 1_000 * factor));
                }
                bool failed = client == "knet" && repetition == 3 && cell.PayloadBytes == 1_000 && cell.Scenario == ScenarioKind.Produce;
                runs.Add(new RunRecord
                {
                    Sequence = sequence, Client = client, Scenario = cell.Scenario, MessageCount = cell.MessageCount,
                    PayloadBytes = cell.PayloadBytes, Variant = cell.Variant, Repetition = repetition, IsWarmup = repetition == 0,
                    Topic = TopicNaming.For(plan.TopicPrefix, client, cell.MessageCount, cell.PayloadBytes, sequence),
                    ElapsedSeconds = failed ? double.NaN : seconds,
                    MessagesPerSecond = failed ? double.NaN : cell.MessageCount / seconds,
                    MegabytesPerSecond = failed ? double.NaN : cell.MessageCount / seconds * cell.PayloadBytes / 1e6,
                    Sent = cell.MessageCount, Delivered = failed ? 990 : cell.MessageCount, Received = cell.Scenario == ScenarioKind.Roundtrip ? cell.MessageCount : 0,
                    Lost = failed ? 10 : 0, Duplicates = 0,
                    Error = failed ? "produce: 990 of 1000 records acknowledged, 10 failed (first error: Local: Message timed out)." : null,
                    Latency = histogram is null ? null : LatencySummary.From(histogram, 1000),
                    LatencyHistogram = histogram,
                    Resources = failed ? null : new RunResources
                    {
                        CpuUserSeconds = seconds * 0.75, CpuSystemSeconds = seconds * 0.125,
                        Gen0Collections = repetition, Gen1Collections = 0, Gen2Collections = 0, AllocatedBytes = 1_000L * repetition,
                        RuntimeGcMillis = client == "knet" ? 3 * repetition : null, RuntimeGcCount = client == "knet" ? repetition : null,
                        RuntimeHeapUsedBytes = client == "knet" ? 50_000_000 : null,
                        BrokerCpuSeconds = seconds * 0.5, TopicBytesOnDisk = cell.MessageCount * (cell.PayloadBytes + 70L),
                        DiskBytesPerPayloadByte = (cell.PayloadBytes + 70.0) / cell.PayloadBytes,
                    },
                    CountersPerMessage = client == "knet" ? new Dictionary<string, double> { ["jni.calls"] = 1.0 } : null,
                });
            }
        }
        var cells = ResultSummarizer.Cells(plan, runs);
        return new BenchmarkResult
        {
            StartedAtUtc = new DateTimeOffset(2026, 11, 22, 10, 0, 0, TimeSpan.Zero),
            FinishedAtUtc = new DateTimeOffset(2026, 11, 22, 10, 5, 0, TimeSpan.Zero),
            Environment = new EnvironmentInfo
            {
                Os = "Debian GNU/Linux 12", Architecture = "X64", ProcessorCount = 2, ProcessorName = "Test CPU", Runtime = ".NET 10.0.0", GarbageCollector = "workstation, concurrent",
                MachineName = "ci", ToolVersion = "0.1.0", BootstrapServers = "127.0.0.1:9092", BrokerVersion = "4.1.0",
                BrokerDescription = "embedded KRaft broker", BrokerConfig = new Dictionary<string, string> { ["num.partitions"] = "1" },
            },
            Plan = plan,
            Clients =
            [
                new ClientInfo { Name = "confluent", LibraryVersion = "2.15.1", Capabilities = ClientCapabilities.DeliveryLatency,
                    Details = new Dictionary<string, string> { ["librdkafka"] = "librdkafka 2.15.1 (KafkaPerf's build: /x/librdkafka.so.1)" },
                    ProducerConfig = new Dictionary<string, string> { ["acks"] = "0", ["linger.ms"] = "100" } },
                new ClientInfo { Name = "knet", LibraryVersion = "3.3.1", Capabilities = ClientCapabilities.Prefetch | ClientCapabilities.DeliveryLatency },
            ],
            Runs = runs,
            Cells = cells,
            Comparisons = ResultSummarizer.Comparisons(plan, cells),
            Warnings = ["max.in.flight=1000000 with idempotence cannot mean the same on both clients."],
        };
    }

    private static string SourceFolder([CallerFilePath] string path = "") => Path.GetDirectoryName(path)!;
}
