using System.Diagnostics;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Adapters.Confluent;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>A run's topic leaves the embedded broker's disk when it is deleted, not a minute later: a plan of 10 GB runs
/// a few seconds apart held 60 GB of deleted topics with Kafka's default delay.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class TopicDeletionTests(BrokerFixture fixture)
{
    [Fact]
    public async Task DeletedTopic_ItsFilesLeaveTheDiskWithinSeconds()
    {
        ConfluentNativeLibrary.EnsureLoaded();
        var cancel = TestContext.Current.CancellationToken;
        string topic = $"kafkaperf-deletion-test-{Guid.NewGuid():N}";
        string logs = fixture.Broker.Config["log.dirs"];
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Broker.BootstrapServers }).Build();
        await admin.CreateTopicsAsync([new TopicSpecification { Name = topic, NumPartitions = 1, ReplicationFactor = 1 }]);
        try
        {
            using (var producer = new ProducerBuilder<Null, byte[]>(new ProducerConfig { BootstrapServers = fixture.Broker.BootstrapServers, LingerMs = 5 }).Build())
            {
                var value = new byte[10_000];
                for (int i = 0; i < 500; i++) producer.Produce(topic, new Message<Null, byte[]> { Value = value });
                Assert.Equal(0, producer.Flush(TimeSpan.FromSeconds(30)));
            }
            Assert.NotEmpty(TopicFolders(logs, topic));
        }
        finally
        {
            await admin.DeleteTopicsAsync([topic]);
        }

        // Kafka renames the partition's folder to <topic>-0.<id>-delete and removes it after log.segment.delete.delay.ms
        // (a minute by default).
        var watch = Stopwatch.StartNew();
        while (TopicFolders(logs, topic).Count > 0)
        {
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(15), $"still on disk after {watch.Elapsed}: {string.Join(", ", TopicFolders(logs, topic))}");
            await Task.Delay(100, cancel);
        }
    }

    private static List<string> TopicFolders(string logs, string topic) =>
        [.. Directory.EnumerateDirectories(logs, topic + "-*").Select(Path.GetFileName).OfType<string>()];
}
