using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>Kafka in a container through Testcontainers, for real: the local image built from Kafka's jars.</summary>
public class ContainerKafkaBrokerTests
{
    [Fact]
    public async Task ConnectAsync_ContainerSource_ConfluentAndJavaProduceAndConsume_ContainerGoneAfter()
    {
        if (TestDocker.WhyUnavailable() is { } why) Assert.Skip(why);
        ConnectedBroker broker;
        await using (broker = await ConnectedBroker.ConnectAsync(BrokerSource.Container(TestDocker.Image), log: null, TestPaths.Timeout()))
        {
            Assert.NotNull(broker.Container);
            Assert.Single(TestDocker.ContainersOf(Environment.ProcessId), id => broker.Container!.ContainerId.StartsWith(id, StringComparison.Ordinal));
            Assert.Equal("4.3.1", broker.Connection.BrokerVersion);
            Assert.StartsWith("Kafka container from " + TestDocker.Image, broker.Connection.BrokerDescription, StringComparison.Ordinal);
            var plan = new BenchmarkPlanBuilder().Clients("confluent", "java").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
                .MessageCounts(2_000).PayloadSizes(100).Repeat(1).Build();

            var result = await new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory(), new JavaClientFactory(batched: false, JavaTestJvm.Options)]), broker.Connection)
                .RunAsync(plan, cancellationToken: TestPaths.Timeout());

            Assert.Equal(8, result.Runs.Count);
            Assert.All(result.Runs, r => Assert.True(r.Succeeded, $"{r.Client} {r.Scenario}: {r.Error}"));
            Assert.All(result.Runs.Where(r => r.Scenario == ScenarioKind.Consume), r => Assert.Equal(2_000, r.Received));
        }

        // Removed, not merely stopped.
        Assert.Empty(TestDocker.ContainersOf(Environment.ProcessId));
    }
}
