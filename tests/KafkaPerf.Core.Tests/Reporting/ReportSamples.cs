using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>Results shaped like real runs, built by hand so that charts can be checked against known numbers.</summary>
internal static class ReportSamples
{
    /// <summary>The baseline's messages per second by payload size; the others are a factor of it.</summary>
    private static readonly Dictionary<int, double> BaselineRate = new() { [100] = 400_000, [1_000] = 150_000, [10_000] = 25_000 };

    /// <summary>Three clients, three scenarios, three sizes, five measured runs after a warm-up ten times faster than
    /// anything measured (so a chart that let it in would show it). java-batched reports no latency, one java run failed,
    /// and latencies are log-normal with a long tail.</summary>
    public static BenchmarkResult Realistic(int repeat = 5, IReadOnlyList<string>? clients = null, IReadOnlyList<int>? sizes = null,
        IReadOnlyList<long>? messages = null, Action<BenchmarkPlanBuilder>? configure = null)
    {
        clients ??= ["confluent", "java", "java-batched"];
        sizes ??= [100, 1_000, 10_000];
        var builder = new BenchmarkPlanBuilder().Clients([.. clients]).Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts([.. messages ?? [10_000]]).PayloadSizes([.. sizes]).Repeat(repeat);
        configure?.Invoke(builder);
        var plan = builder.Build();
        var random = new Random(7);
        var runs = new List<RunRecord>();
        int sequence = 0;
        foreach (var cell in plan.Cells())
        {
            // Reference tools run produce and consume cells only, without a warm-up, as the runner has them.
            var cellClients = plan.ClientsFor(cell);
            foreach (var (client, repetition) in cellClients.Where(c => !plan.IsReference(c)).Select(c => (c, 0)).Concat(RunOrder.Balanced(cellClients, plan.Repeat)))
            {
                sequence++;
                double factor = client switch
                {
                    "java" => cell.PayloadBytes <= 1_000 ? 0.8 : 1.1,
                    "java-batched" => 1.3,
                    _ => 1.0,
                };
                double rate = (BaselineRate.TryGetValue(cell.PayloadBytes, out var known) ? known : 100_000) * factor
                    * (cell.Scenario == ScenarioKind.Roundtrip ? 0.6 : 1) * (1 + (0.05 * (random.NextDouble() - 0.5)));
                if (repetition == 0) rate *= 10;
                bool failed = client == "java" && repetition == 2 && cell.PayloadBytes == 10_000 && cell.Scenario == ScenarioKind.Produce;
                HdrHistogram.LongHistogram? histogram = null;
                if (cell.Scenario != ScenarioKind.Consume && client != "java-batched" && !plan.IsReference(client))
                {
                    histogram = Histograms.Create();
                    double medianMicros = (cell.Scenario == ScenarioKind.Produce ? 3_000 : 20_000) * (client == "java" ? 1.6 : 1);
                    for (int i = 0; i < 10_000; i++)
                    {
                        // Log-normal around the median, with one record in a thousand forty times slower (a GC pause, a retry).
                        double normal = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
                        double micros = medianMicros * Math.Exp(0.35 * normal) * (random.Next(1_000) == 0 ? 40 : 1);
                        histogram.RecordValue((long)(micros * 1_000));
                    }
                }
                double seconds = cell.MessageCount / rate;
                runs.Add(new RunRecord
                {
                    Sequence = sequence, Client = client, Scenario = cell.Scenario, MessageCount = cell.MessageCount,
                    PayloadBytes = cell.PayloadBytes, Variant = cell.Variant, Repetition = repetition, IsWarmup = repetition == 0,
                    Topic = TopicNaming.For(plan.TopicPrefix, client, cell.MessageCount, cell.PayloadBytes, sequence),
                    ElapsedSeconds = failed ? double.NaN : seconds,
                    MessagesPerSecond = failed ? double.NaN : rate,
                    MegabytesPerSecond = failed ? double.NaN : rate * cell.PayloadBytes / 1e6,
                    Sent = cell.MessageCount, Delivered = cell.MessageCount, Lost = 0, Duplicates = 0,
                    Error = failed ? "produce: timed out" : null,
                    Latency = histogram is null ? null : LatencySummary.From(histogram, 1_000),
                    LatencyHistogram = histogram,
                });
            }
        }
        return Assemble(plan, runs);
    }

    /// <summary>The result of <paramref name="plan"/> from <paramref name="runs"/>, with a fixed environment.</summary>
    public static BenchmarkResult Assemble(BenchmarkPlan plan, IReadOnlyList<RunRecord> runs)
    {
        var cells = ResultSummarizer.Cells(plan, runs);
        return new BenchmarkResult
        {
            StartedAtUtc = new DateTimeOffset(2026, 11, 22, 10, 0, 0, TimeSpan.Zero),
            FinishedAtUtc = new DateTimeOffset(2026, 11, 22, 10, 12, 0, TimeSpan.Zero),
            Environment = new EnvironmentInfo
            {
                Os = "Debian GNU/Linux 12 (bookworm)", Architecture = "X64", ProcessorCount = 2, ProcessorName = "AMD EPYC 7B13",
                Runtime = ".NET 10.0.0", GarbageCollector = "workstation, concurrent", MachineName = "bench-01", ToolVersion = "0.1.0",
                BootstrapServers = "127.0.0.1:39092", BrokerVersion = "4.3.1", BrokerDescription = "embedded KRaft broker",
            },
            Plan = plan,
            Clients = [.. plan.Clients.Select(c => new ClientInfo
            {
                Name = c,
                LibraryVersion = c == "confluent" ? "2.15.1" : "4.3.1",
                Capabilities = c == "java-batched" ? ClientCapabilities.None : ClientCapabilities.DeliveryLatency,
            })],
            Runs = runs,
            Cells = cells,
            Comparisons = ResultSummarizer.Comparisons(plan, cells),
            Warnings = [],
        };
    }
}
