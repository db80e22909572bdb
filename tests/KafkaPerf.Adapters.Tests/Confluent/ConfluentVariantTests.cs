using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Confluent;

/// <summary>The API-style variants of Confluent.Kafka (<c>confluent-sync</c>, <c>confluent-async</c>,
/// <c>confluent-records</c>) on the real embedded broker.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class ConfluentVariantTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Theory]
    [InlineData(ConfluentStyle.Awaited, 100)]
    [InlineData(ConfluentStyle.Awaited, 100_000)]
    [InlineData(ConfluentStyle.AsyncWindow, 100)]
    [InlineData(ConfluentStyle.AsyncWindow, 100_000)]
    public async Task Produce_10kSmallOr2kLargeRecords_EveryKeyExactlyOnceAndEveryAcknowledgementSeen(ConfluentStyle style, int payloadBytes)
    {
        // 2 000 records of 100 KB, as the java client's tests send: 10 000 made each large case a gigabyte through the
        // shared broker (written, then read back), for the same proof of every key once and every acknowledgement.
        int count = payloadBytes >= 100_000 ? 2_000 : 10_000;
        var payload = new byte[payloadBytes];
        new Random(payloadBytes).NextBytes(payload);
        await OnTemporaryTopicAsync(style, async (client, topic) =>
        {
            // One record in flight waits for each acknowledgement: without linger the test takes seconds, not 50.
            var settings = style == ConfluentStyle.Awaited ? ClientSettings.SeedProfile with { LingerMs = 0 } : ClientSettings.SeedProfile;
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = count, Payload = payload, Settings = settings };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(count, m.Delivered);
            Assert.Equal(count, m.LatencyHistogram!.TotalCount);
            var (verifier, mismatches) = ReadBack(topic, count, payload);
            Assert.True(verifier.IsComplete, $"{verifier.Distinct} of {count} keys, {verifier.Unexpected} unexpected");
            Assert.Equal(0, verifier.Duplicates);
            Assert.Equal(0, mismatches);
            await Task.CompletedTask;
        });
    }

    [Fact]
    public async Task Produce_AsyncWindowLargerThanLibrdkafkasQueue_WaitsAndSendsAgainEveryKeyExactlyOnce()
    {
        // 1 000 000 × 10 KB in a window of 100 000 is about librdkafka's 1 GiB queue: ProduceAsync failed records with
        // "Local: Queue full" (docs/BENCHMARKS.md). Here a 1 MB queue and 100 KB records fill it at the 11th send.
        const int Count = 300;
        var payload = new byte[100_000];
        new Random(3).NextBytes(payload);
        await OnTemporaryTopicAsync(ConfluentStyle.AsyncWindow, async (client, topic) =>
        {
            var settings = ClientSettings.SeedProfile with { Overrides = new Dictionary<string, string> { ["queue.buffering.max.kbytes"] = "1024" } };
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = Count, Payload = payload, Settings = settings };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(Count, m.Delivered);
            var (verifier, mismatches) = ReadBack(topic, Count, payload);
            Assert.True(verifier.IsComplete, $"{verifier.Distinct} of {Count} keys, {verifier.Unexpected} unexpected");
            Assert.Equal(0, verifier.Duplicates);
            Assert.Equal(0, mismatches);
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData(100)]
    [InlineData(100_000)]
    public async Task Consume_10kSmallOr2kLargeRecordsOneConsumeResultEach_EveryKeyExactlyOnceAndEveryPayloadIntact(int payloadBytes)
    {
        int count = payloadBytes >= 100_000 ? 2_000 : 10_000; // as the produce test above
        var payload = new byte[payloadBytes];
        new Random(payloadBytes).NextBytes(payload);
        await OnTemporaryTopicAsync(ConfluentStyle.RecordConsume, async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = count, Payload = payload, Settings = ClientSettings.SeedProfile, CheckPayload = true,
            };

            var m = Scenario.Consume.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(count, m.Received);
            Assert.Equal(0, m.Lost);
            Assert.Equal(0, m.Duplicates);
            Assert.Equal(0, m.Unexpected);
            Assert.Equal(0, m.PayloadMismatches);
            await Task.CompletedTask;
        });
    }

    [Fact]
    public async Task Roundtrip_AsyncWithAWindowSet_ProducerAndConsumerBothRun()
    {
        // The window is confluent-async's own key: its producer reads it, and its consumer (confluent's) must not hand it
        // to librdkafka, which would reject it.
        const int Count = 10_000;
        await OnTemporaryTopicAsync(ConfluentStyle.AsyncWindow, async (client, topic) =>
        {
            var settings = ClientSettings.SeedProfile with { Overrides = new Dictionary<string, string> { ["window"] = "64" } };
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = Count, Payload = new byte[100], Settings = settings };

            var m = Scenario.Roundtrip.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(Count, m.Delivered);
            Assert.Equal(Count, m.Received);
            Assert.Equal(0, m.Lost);
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("many")]
    [InlineData("1.5")]
    public void CheckSettings_WindowNotAPositiveInteger_OneLineSayingWhatToGive(string window)
    {
        var settings = ClientSettings.ClientDefaults with { Overrides = new Dictionary<string, string> { ["window"] = window } };

        var message = new ConfluentClientFactory(style: ConfluentStyle.AsyncWindow).CheckSettings(settings);

        Assert.Equal($"-X confluent-async:window={window} is not a window: give the number of ProduceAsync calls in flight, a positive integer, e.g. -X confluent-async:window=1000.", message);
    }

    [Fact]
    public void CheckSettings_WindowOnAVariantWithout_OneLine_AndAGoodWindowPasses()
    {
        var window = ClientSettings.ClientDefaults with { Overrides = new Dictionary<string, string> { ["window"] = "64" } };

        Assert.Null(new ConfluentClientFactory(style: ConfluentStyle.AsyncWindow).CheckSettings(window));
        Assert.Equal("-X confluent-sync:window= is not a setting of confluent-sync: only confluent-async has a window of sends in flight.",
            new ConfluentClientFactory(style: ConfluentStyle.Awaited).CheckSettings(window));
    }

    private (KeyVerifier Verifier, int PayloadMismatches) ReadBack(string topic, long count, byte[] payload) =>
        Tests.ReadBack.Topic(fixture.Broker.BootstrapServers, topic, count, payload);

    private Task OnTemporaryTopicAsync(ConfluentStyle style, Func<IBenchClient, string, Task> test) =>
        TemporaryTopic.RunAsync(new ConfluentClientFactory(style: style), Connection, test);
}
