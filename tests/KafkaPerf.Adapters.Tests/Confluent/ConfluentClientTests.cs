using Confluent.Kafka;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Confluent;

[Collection(BrokerCollectionDefinition.Name)]
public class ConfluentClientTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Fact]
    public async Task Consume_100kRecords_EveryKeyExactlyOnceAndEveryPayloadIntact()
    {
        await OnTemporaryTopicAsync(async (client, topic) =>
        {
            var payload = new byte[1000];
            new Random(7).NextBytes(payload);
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = 100_000, Payload = payload,
                Settings = ClientSettings.ClientDefaults, CheckPayload = true,
            };

            var m = Scenario.Consume.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(100_000, m.Delivered);
            Assert.Equal(100_000, m.Received);
            Assert.Equal(0, m.Lost);
            Assert.Equal(0, m.Duplicates);
            Assert.Equal(0, m.Unexpected);
            Assert.Equal(0, m.PayloadMismatches);
            Assert.True(m.ElapsedSeconds > 0);
            Assert.Equal("smallest", m.ConsumerConfig!["auto.offset.reset"]);
        });
    }

    [Fact]
    public async Task Produce_OneMillionWithDefaultQueueLimits_EveryRecordAcknowledged()
    {
        await OnTemporaryTopicAsync(async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = 1_000_000, Payload = new byte[100], Settings = ClientSettings.ClientDefaults,
            };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(1_000_000, m.Delivered);
            Assert.Equal(0, m.Lost);
            // The producer runs with librdkafka's default queue limit, a tenth of the records sent.
            Assert.Equal("100000", m.ProducerConfig!["queue.buffering.max.messages"]);
            Assert.Equal(8, m.LatencySampleStride);
            Assert.Equal(125_000, m.LatencyHistogram!.TotalCount);
        });
    }

    [Fact]
    public async Task RunAsync_ThreeScenariosTwoSizesThreeRepeats_AllSucceedAndEveryTopicIsDeleted()
    {
        // 500 records a run: what this guards (every scenario, size and repeat succeeds, every record read back, every
        // topic deleted) does not depend on the count, and with 2 000 its 24 runs wrote 2.4 GB (and read 1.6 GB) through the
        // shared broker (the 100 KB runs), 37-51 s of a CI run. The count-dependent paths have their own tests above.
        var prefix = "kafkaperf-e2e-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder()
            .Clients("confluent")
            .Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(500).PayloadSizes(100, 100_000).Repeat(3)
            .Topics(prefix)
            .Consume(checkPayload: true)
            .Build();
        var registry = new ClientRegistry([new ConfluentClientFactory()]);

        var result = await new BenchmarkRunner(registry, Connection with { BrokerDescription = "embedded" }).RunAsync(plan, cancellationToken: TestPaths.Timeout(5));

        Assert.Equal(3 * 2 * (3 + 1), result.Runs.Count);
        Assert.All(result.Runs, r => Assert.True(r.Succeeded, $"run {r.Sequence} ({r.Scenario}, {r.PayloadBytes} B) failed: {r.Error}"));
        Assert.All(result.Runs.Where(r => r.Scenario != ScenarioKind.Produce), r => Assert.Equal(500, r.Received));
        Assert.All(result.Cells, c => Assert.Equal(3, c.Runs));
        var info = Assert.Single(result.Clients);
        Assert.Contains("librdkafka 2.16.0", info.LibraryVersion, StringComparison.Ordinal);
        Assert.Equal("2.16.0 (librdkafka.redist)", info.Details!["librdkafka"]);
        Assert.Equal(ConfluentNativeLibrary.EnsureLoaded().Path, info.Details["librdkafka.file"]);
        Assert.Contains("lz4", info.Details["librdkafka.features"], StringComparison.Ordinal);
        Assert.DoesNotContain(result.Warnings, w => w.Contains("librdkafka", StringComparison.Ordinal));
        Assert.Equal("4.3.1", result.Environment.BrokerVersion);
        Assert.NotNull(info.ProducerConfig);
        Assert.NotNull(info.ConsumerConfig);

        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Broker.BootstrapServers }).Build();
        var left = admin.GetMetadata(TimeSpan.FromSeconds(10)).Topics.Select(t => t.Topic).Where(t => t.StartsWith(prefix, StringComparison.Ordinal));
        Assert.Empty(left);
    }

    [Fact]
    public async Task RunAsync_ClusterThatAutoCreatesTopics_DeletedTopicsStayDeleted()
    {
        // Kafka's default: a metadata request for a missing topic creates it, unless the client says not to.
        await using var broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions
        {
            HeapMegabytes = 256, ExtraConfig = new Dictionary<string, string> { ["auto.create.topics.enable"] = "true" },
        }, TestPaths.Timeout());
        var prefix = "kafkaperf-autocreate-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
            .MessageCounts(1_000).PayloadSizes(100).Repeat(1).Topics(prefix).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory()]), new ClusterConnection(broker.BootstrapServers))
            .RunAsync(plan, cancellationToken: TestPaths.Timeout());
        await Task.Delay(TimeSpan.FromSeconds(2));

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = broker.BootstrapServers, AllowAutoCreateTopics = false }).Build();
        Assert.DoesNotContain(admin.GetMetadata(TimeSpan.FromSeconds(10)).Topics, t => t.Topic.StartsWith(prefix, StringComparison.Ordinal));
    }

    [Fact]
    public async Task RunAsync_ThreePartitions_ConsumeAndRoundtripGetEveryKeyOnce()
    {
        var prefix = "kafkaperf-partitions-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(5_000).PayloadSizes(100).Repeat(1).Partitions(3).Topics(prefix).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory()]), Connection).RunAsync(plan, cancellationToken: TestPaths.Timeout());

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.All(result.Runs, r => Assert.Equal(5_000, r.Received));
        Assert.All(result.Runs, r => Assert.Equal("partitions=3", r.Variant));
    }

    [Fact]
    public async Task CreateTopicAsync_TopicExists_FailsWithoutTouchingIt()
    {
        await OnTemporaryTopicAsync(async (client, topic) =>
        {
            var ex = await Assert.ThrowsAsync<TopicExistsException>(async () => await client.CreateTopicAsync(new TopicSpec(topic), TestPaths.Timeout()));

            Assert.Equal(topic, ex.Topic);
        });
    }

    [Fact]
    public async Task CreateProducer_CommonSettings_MappedToLibrdkafkaKeysWithEveryDefaultRecorded()
    {
        await OnTemporaryTopicAsync(async (client, topic) =>
        {
            var settings = new ClientSettings
            {
                Acks = AcksMode.Leader, LingerMs = 100, BatchSizeBytes = 1_000_000, MaxInFlight = 5, Compression = CompressionCodec.Lz4,
                SendBufferBytes = 1 << 20, Overrides = new Dictionary<string, string> { ["queue.buffering.max.messages"] = "12345" },
            };

            using var producer = client.CreateProducer(new ProducerSpec(topic, settings), new IgnoringSink());
            var config = producer.EffectiveConfig;

            Assert.Equal("1", config["acks"]);
            Assert.Equal("1", config["request.required.acks"]);
            Assert.Equal("100", config["linger.ms"]);
            Assert.Equal("100", config["queue.buffering.max.ms"]);
            Assert.Equal("1000000", config["batch.size"]);
            Assert.Equal("5", config["max.in.flight.requests.per.connection"]);
            Assert.Equal("lz4", config["compression.type"]);
            Assert.Equal("lz4", config["compression.codec"]);
            Assert.Equal("1048576", config["socket.send.buffer.bytes"]);
            Assert.Equal("12345", config["queue.buffering.max.messages"]);
            Assert.Equal("false", config["enable.idempotence"]);
            Assert.Equal("false", config["allow.auto.create.topics"]);
            Assert.True(config.Count > 100, $"only {config.Count} keys: librdkafka's defaults are missing");
            Assert.DoesNotContain(config, pair => pair.Key.EndsWith("_cb", StringComparison.Ordinal));
        });
    }

    /// <summary>Runs a test with a client and a fresh topic of its own, deleted afterwards whatever happens.</summary>
    private Task OnTemporaryTopicAsync(Func<IBenchClient, string, Task> test) =>
        TemporaryTopic.RunAsync(new ConfluentClientFactory(), Connection, test);

    private sealed class IgnoringSink : IDeliverySink
    {
        public void OnDelivered(long key)
        {
        }

        public void OnDeliveryFailed(long key, string reason)
        {
        }
    }
}
