using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Librdkafka;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Librdkafka;

/// <summary>
/// The <c>librdkafka</c> reference client (librdkafka's C API from .NET, no Confluent.Kafka producer or consumer) on the
/// real embedded broker: every scenario with every key once, a rate with response times, the settings that reach it, and
/// no managed allocation per record on its hot paths.
/// </summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class LibrdkafkaClientTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion) { BrokerDescription = "embedded" };

    public static TheoryData<string, int> Cases()
    {
        var data = new TheoryData<string, int>();
        foreach (var scenario in new[] { "produce", "consume", "roundtrip" })
            foreach (var size in new[] { 100, 1_000 }) data.Add(scenario, size);
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Scenario_10kRecords_EveryKeyExactlyOnceAndNoLoss(string scenario, int payloadBytes)
    {
        const int Count = 10_000;
        var payload = new byte[payloadBytes];
        new Random(payloadBytes).NextBytes(payload);
        await OnTemporaryTopicAsync(async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = Count, Payload = payload, Settings = ClientSettings.ClientDefaults, CheckPayload = true,
            };

            switch (scenario)
            {
                case "produce":
                {
                    var m = Scenario.Produce.Run(context, TestPaths.Timeout());
                    Assert.Null(m.Error);
                    Assert.Equal(Count, m.Delivered);
                    Assert.Equal(0, m.Lost);
                    Assert.Equal(Count, m.LatencyHistogram!.TotalCount);
                    // The common knobs reached librdkafka through confluent's parity table, without Confluent.Kafka's own keys.
                    Assert.Equal(LibrdkafkaSettings.ClientId, m.ProducerConfig!["client.id"]);
                    Assert.DoesNotContain(m.ProducerConfig, pair => pair.Key.StartsWith("dotnet.", StringComparison.Ordinal));
                    Assert.Equal("false", m.ProducerConfig["allow.auto.create.topics"]);
                    break;
                }
                case "consume":
                {
                    var m = Scenario.Consume.Run(context, TestPaths.Timeout());
                    Assert.Null(m.Error);
                    Assert.Equal(Count, m.Received);
                    Assert.Equal(0, m.Lost);
                    Assert.Equal(0, m.Duplicates);
                    Assert.Equal(0, m.Unexpected);
                    Assert.Equal(0, m.PayloadMismatches);
                    Assert.Equal(0, m.NotVerified);
                    Assert.Equal("smallest", m.ConsumerConfig!["auto.offset.reset"]);
                    break;
                }
                default:
                {
                    var m = Scenario.Roundtrip.Run(context, TestPaths.Timeout());
                    Assert.Null(m.Error);
                    Assert.Equal(Count, m.Delivered);
                    Assert.Equal(Count, m.Received);
                    Assert.Equal(0, m.Lost);
                    Assert.Equal(0, m.Duplicates);
                    Assert.Equal(Count, m.LatencyHistogram!.TotalCount);
                    Assert.True(m.LatencyHistogram.GetValueAtPercentile(50) > 0);
                    break;
                }
            }
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task RunAsync_ProduceAndRoundtripAtARate_EveryKeyOnceWithResponseTimes(int instances)
    {
        // Two consumers share the group's partitions: the rebalance callback assigns and revokes for real.
        var plan = new BenchmarkPlanBuilder().Clients(LibrdkafkaClientFactory.ClientName).Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip).PayloadSizes(100)
            .Rates(2_000).Duration(TimeSpan.FromSeconds(2)).LoadWarmup(TimeSpan.FromMilliseconds(500)).Producers(instances).Consumers(instances)
            .Settings(new ClientSettings { Acks = AcksMode.Leader, LingerMs = 1, BatchSizeBytes = 1_000_000, MaxInFlight = 5 }).Repeat(1).Build();

        var result = await Runner().RunAsync(plan, cancellationToken: TestPaths.Timeout());

        Assert.Equal(2, result.Runs.Count);
        foreach (var run in result.Runs)
        {
            Assert.True(run.Succeeded, $"{run.Scenario}: {run.Error}");
            Assert.Equal(5_000, run.Sent);
            Assert.Equal(0, run.Lost);
            Assert.Equal(instances, run.Producers);
            // Within 10 % of the schedule, as every client's rate test allows on a shared 2-core machine.
            Assert.InRange(run.AchievedRate!.Value, 2_000 * 0.90, 2_000 * 1.01);
            Assert.Equal(4_000, run.ResponseTime!.Count);
            Assert.True(run.ResponseTime.P50Micros < 200_000, $"{run.Scenario} response p50 {run.ResponseTime.P50Micros} µs");
        }
        var roundtrip = result.Runs.Single(r => r.Scenario == ScenarioKind.Roundtrip);
        Assert.Equal(5_000, roundtrip.Received);
        Assert.Equal(0, roundtrip.Duplicates);
        Assert.Equal(instances, roundtrip.Consumers);
    }

    [Fact]
    public async Task RunAsync_BurstsWithAnOverride_OverrideReachesLibrdkafkaAndResultSaysReference()
    {
        var plan = new BenchmarkPlanBuilder().Clients(LibrdkafkaClientFactory.ClientName).Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
            .MessageCounts(2_000).PayloadSizes(100).Repeat(1)
            .Override(LibrdkafkaClientFactory.ClientName, "queue.buffering.max.messages", "54321").Build();

        var result = await Runner().RunAsync(plan, cancellationToken: TestPaths.Timeout());

        // A warm-up run and a measured run per cell, as every client's bursts.
        Assert.Equal(4, result.Runs.Count);
        Assert.All(result.Runs, r => Assert.True(r.Succeeded, $"{r.Scenario}: {r.Error}"));
        var info = Assert.Single(result.Clients);
        Assert.Equal("54321", info.ProducerConfig!["queue.buffering.max.messages"]);
        Assert.Equal(LibrdkafkaClientFactory.ReferenceNote, info.Details!["reference"]);
        Assert.Equal(ConfluentNativeLibrary.EnsureLoaded().Path, info.Details["librdkafka.file"]);
        // The report's client table says so in its "runs on" column.
        using var markdown = new StringWriter();
        MarkdownExporter.Write(ResultTables.Document(result), markdown);
        Assert.Contains($"reference: {LibrdkafkaClientFactory.ReferenceNote}", markdown.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void CheckSettings_UnknownKeyOrConfluentKafkaKey_OneLine()
    {
        var factory = new LibrdkafkaClientFactory();

        var unknown = factory.CheckSettings(new ClientSettings { Overrides = new Dictionary<string, string> { ["no.such.key"] = "1" } });
        var dotnet = factory.CheckSettings(new ClientSettings { Overrides = new Dictionary<string, string> { ["dotnet.producer.delivery.report.fields"] = "key" } });

        Assert.Contains("no.such.key", unknown, StringComparison.Ordinal);
        Assert.Contains("Confluent.Kafka", dotnet, StringComparison.Ordinal);
        Assert.Null(factory.CheckSettings(new ClientSettings { Overrides = new Dictionary<string, string> { ["linger.ms"] = "3" } }));
    }

    private BenchmarkRunner Runner() => new(new ClientRegistry([new LibrdkafkaClientFactory()]), Connection);

    private Task OnTemporaryTopicAsync(Func<IBenchClient, string, Task> test) =>
        TemporaryTopic.RunAsync(new LibrdkafkaClientFactory(), Connection, test);
}
