using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Share groups (<c>--group share</c>, KIP-932) on the real embedded broker: librdkafka's share consumer for the
/// <c>confluent</c> styles and <c>KafkaShareConsumer</c> for the Java ones read every record exactly once, with implicit
/// and explicit acknowledgement, alone and as several members of one group on one partition (which a classic group could
/// not share), and in a roundtrip.</summary>
[Collection(SecondBrokerCollectionDefinition.Name)]
public sealed class ShareGroupTests(BrokerFixture fixture)
{
    private const int Count = 5_000;

    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Theory]
    [InlineData("confluent", ConsumerGroupKind.Share)]
    [InlineData("confluent", ConsumerGroupKind.ShareExplicit)]
    [InlineData("java", ConsumerGroupKind.Share)]
    [InlineData("java", ConsumerGroupKind.ShareExplicit)]
    [InlineData("java-records", ConsumerGroupKind.ShareExplicit)]
    public async Task Consume_OneMember_EveryRecordExactlyOnce(string clientName, ConsumerGroupKind group)
    {
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = Count, Payload = new byte[100], Settings = new ClientSettings { Group = group },
                StallTimeout = TimeSpan.FromSeconds(20),
            };

            var m = await Task.Run(() => Scenario.Consume.Run(context, TestPaths.Timeout()));

            Assert.True(m.Succeeded, m.Error);
            Assert.Equal(Count, m.Received);
            Assert.Equal(0, m.Lost);
            Assert.Equal(0, m.Duplicates);
            Assert.Equal(0, m.PayloadMismatches);
            Assert.Equal(group == ConsumerGroupKind.ShareExplicit ? "explicit" : "implicit", m.ConsumerConfig!["share.acknowledgement.mode"]);
            Assert.True(m.ElapsedSeconds > 0);
        });
    }

    [Theory]
    [InlineData("confluent", ConsumerGroupKind.Share)]
    [InlineData("java", ConsumerGroupKind.ShareExplicit)]
    public async Task Consume_ThreeMembersOnOnePartition_EveryRecordExactlyOnceAcrossTheGroup(string clientName, ConsumerGroupKind group)
    {
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = Count, Payload = new byte[100], Consumers = 3,
                Settings = new ClientSettings { Group = group, Consumers = 3 }, StallTimeout = TimeSpan.FromSeconds(20),
            };

            var m = await Task.Run(() => LoadScenario.For(ScenarioKind.Consume).Run(context, TestPaths.Timeout()));

            Assert.True(m.Succeeded, m.Error);
            Assert.Equal(3, m.Consumers);
            Assert.Equal(Count, m.Received);
            Assert.Equal(0, m.Lost);
            Assert.Equal(0, m.Duplicates);
        }, partitions: 1);
    }

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    public async Task Roundtrip_EveryRecordArrivesOnceWithItsLatency(string clientName)
    {
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = Count, Payload = new byte[100],
                Settings = new ClientSettings { Group = ConsumerGroupKind.Share, LingerMs = 1 }, StallTimeout = TimeSpan.FromSeconds(20),
            };

            var m = await Task.Run(() => Scenario.Roundtrip.Run(context, TestPaths.Timeout()));

            Assert.True(m.Succeeded, m.Error);
            Assert.Equal(Count, m.Received);
            Assert.Equal(0, m.Lost);
            Assert.Equal(0, m.Duplicates);
            Assert.Equal(Count, m.LatencyHistogram!.TotalCount);
        });
    }
}
