using System.Diagnostics;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>The embedded cluster of three nodes, one started per test (the kill test leaves it short of a node).</summary>
public sealed class EmbeddedClusterTests
{
    [Fact]
    public async Task StartAsync_ThreeBrokers_EveryBrokerInTheMetadataAndEveryNodeGoneAfterDispose()
    {
        var broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { Brokers = 3, HeapMegabytes = 384 }, TestPaths.Timeout());
        var pids = broker.Nodes.Select(n => n.ProcessId).ToList();
        var data = broker.DataDirectory;
        try
        {
            Assert.Equal([1, 2, 3], broker.Nodes.Select(n => n.NodeId));
            Assert.All(broker.Nodes, n => Assert.True(n.IsController));
            Assert.Equal(3, pids.Distinct().Count());
            Assert.All(pids, pid => Assert.True(EmbeddedKafkaBrokerTests.IsRunning(pid)));
            Assert.Equal(3, broker.BootstrapServers.Split(',').Length);
            Assert.Equal("3", broker.Config["offsets.topic.replication.factor"]);
            Assert.StartsWith("1@127.0.0.1:", broker.Config["controller.quorum.voters"], StringComparison.Ordinal);
            // Asked through one node only, the metadata lists all three.
            using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = broker.Nodes[2].BootstrapServer }).Build();
            var metadata = admin.GetMetadata(TimeSpan.FromSeconds(10));
            Assert.Equal([1, 2, 3], metadata.Brokers.Select(b => b.BrokerId).Order());

            // The Java client's admin creates a replicated topic with its own min.insync.replicas too.
            var topic = $"kafkaperf-java-cluster-test-{Guid.NewGuid():N}";
            await using var java = new JavaClientFactory(batched: false, JavaTestJvm.Options).Create(new KafkaEndpoint(broker.BootstrapServers));
            await java.CreateTopicAsync(new TopicSpec(topic, Partitions: 2, ReplicationFactor: 3, MinInSyncReplicas: 2), TestPaths.Timeout());
            try
            {
                var described = (await admin.DescribeTopicsAsync(TopicCollection.OfTopicNames([topic]))).TopicDescriptions.Single();
                Assert.All(described.Partitions, p => Assert.Equal(3, p.Replicas.Count));
                var configs = await admin.DescribeConfigsAsync([new ConfigResource { Type = ResourceType.Topic, Name = topic }]);
                Assert.Equal("2", configs.Single().Entries["min.insync.replicas"].Value);
            }
            finally
            {
                await java.DeleteTopicAsync(topic, TestPaths.Timeout());
            }
        }
        finally
        {
            await broker.DisposeAsync();
        }

        Assert.All(pids, pid => Assert.False(EmbeddedKafkaBrokerTests.IsRunning(pid), $"node JVM {pid} outlived dispose"));
        Assert.False(Directory.Exists(data));
    }

    [Fact]
    public async Task ReplicatedTopic_OneBrokerKilled_AcksAllProduceGoesOnAndEveryRecordIsRead()
    {
        await using var broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { Brokers = 3, HeapMegabytes = 384 }, TestPaths.Timeout());
        var lost = new TaskCompletionSource<(EmbeddedBrokerNode Node, BrokerExit Exit)>(TaskCreationOptions.RunContinuationsAsynchronously);
        broker.NodeExited += (node, exit) => lost.TrySetResult((node, exit));
        var factory = new ConfluentClientFactory();
        var connection = new ClusterConnection(broker.BootstrapServers) { Brokers = 3 };
        string topic = $"kafkaperf-cluster-test-{Guid.NewGuid():N}";
        await using var client = factory.Create(connection.Endpoint);
        await client.CreateTopicAsync(new TopicSpec(topic, Partitions: 3, ReplicationFactor: 3, MinInSyncReplicas: 2), TestPaths.Timeout());
        try
        {
            // Every node knows the topic before anyone asks one of them about it (CI saw "Unknown topic or partition" from
            // a node that had not learned it yet, on a machine running four test processes).
            Assert.Null(await new ConfluentClusterReadiness(broker.BootstrapServers).WaitUntilReadyAsync(topic, [], TimeSpan.FromMinutes(1), TestPaths.Timeout()));
            using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = broker.BootstrapServers }).Build();
            var described = (await admin.DescribeTopicsAsync(TopicCollection.OfTopicNames([topic]))).TopicDescriptions.Single();
            Assert.All(described.Partitions, p => Assert.Equal(3, p.Replicas.Count));
            var configs = await admin.DescribeConfigsAsync([new ConfigResource { Type = ResourceType.Topic, Name = topic }]);
            Assert.Equal("2", configs.Single().Entries["min.insync.replicas"].Value);

            var producerConfig = new ProducerConfig
            {
                BootstrapServers = broker.BootstrapServers, Acks = Acks.All, EnableIdempotence = true, MessageTimeoutMs = 60_000,
            };
            using var producer = new ProducerBuilder<long, byte[]>(producerConfig).Build();
            var payload = new byte[100];
            await ProduceAsync(producer, topic, 0, 1_000, payload);

            // The node that leads partition 0 goes: its partitions elect new leaders among the two in sync.
            int victim = described.Partitions[0].Leader.Id;
            var killed = Stopwatch.StartNew();
            broker.KillNode(victim);
            var exited = await lost.Task.WaitAsync(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);
            Assert.Equal(victim, exited.Node.NodeId);
            Assert.StartsWith($"node {victim} of the embedded cluster exited (killed by SIGKILL)", exited.Exit.What, StringComparison.Ordinal);
            Assert.False(broker.UnexpectedExit.IsCompleted, "a cluster that lost one of three nodes can still serve");

            await ProduceAsync(producer, topic, 1_000, 1_000, payload);
            Assert.True(killed.Elapsed < TimeSpan.FromSeconds(60), $"acks=all produce resumed only after {killed.Elapsed.TotalSeconds:0.0} s");

            // Every key exactly once, read from the two nodes left.
            var consumerConfig = new ConsumerConfig
            {
                BootstrapServers = broker.BootstrapServers, GroupId = topic, AutoOffsetReset = AutoOffsetReset.Earliest, EnableAutoCommit = false,
            };
            using var consumer = new ConsumerBuilder<long, byte[]>(consumerConfig).Build();
            consumer.Subscribe(topic);
            var seen = new HashSet<long>();
            int duplicates = 0;
            var deadline = Stopwatch.StartNew();
            while (seen.Count < 2_000 && deadline.Elapsed < TimeSpan.FromSeconds(60))
            {
                if (consumer.Consume(TimeSpan.FromMilliseconds(200)) is { } record && !seen.Add(record.Message.Key)) duplicates++;
            }
            consumer.Close();
            Assert.Equal(2_000, seen.Count);
            Assert.Equal(0, duplicates);
        }
        finally
        {
            // A client made now: the one made before the kill may still route its admin requests to the node that is gone
            // ("Timed out waiting for controller" on a loaded CI machine).
            await using var after = factory.Create(connection.Endpoint);
            await after.DeleteTopicAsync(topic, TestPaths.Timeout());
        }
    }

    [Fact]
    public async Task StartAsync_BrokersOutOfRange_SaysTheRange()
    {
        var ex = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() =>
            EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { Brokers = 0 }, TestPaths.Timeout()));

        Assert.StartsWith($"The embedded cluster has 1 to {EmbeddedKafkaBrokerOptions.MaxBrokers} brokers.", ex.Message, StringComparison.Ordinal);
    }

    private static async Task ProduceAsync(IProducer<long, byte[]> producer, string topic, long first, int count, byte[] payload)
    {
        var deliveries = new Task<DeliveryResult<long, byte[]>>[count];
        for (int i = 0; i < count; i++) deliveries[i] = producer.ProduceAsync(topic, new Message<long, byte[]> { Key = first + i, Value = payload });
        var results = await Task.WhenAll(deliveries).WaitAsync(TimeSpan.FromSeconds(90), TestContext.Current.CancellationToken);
        Assert.All(results, r => Assert.Equal(PersistenceStatus.Persisted, r.Status));
    }
}
