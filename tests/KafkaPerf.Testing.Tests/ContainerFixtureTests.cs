using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Testing.Tests;

/// <summary>A fixture that asks for a broker in a container, as a user's test project would.</summary>
public sealed class ContainerBrokerFixture : KafkaBrokerFixture
{
    protected override BrokerSource Source => BrokerSource.Container(TestDocker.Image);

    public override async ValueTask InitializeAsync()
    {
        // Where no Docker engine runs, the tests skip and say why; the fixture then starts nothing.
        if (TestDocker.WhyUnavailable() is null) await base.InitializeAsync();
    }
}

public sealed class ContainerFixtureTests(ContainerBrokerFixture broker) : IClassFixture<ContainerBrokerFixture>
{
    [Fact]
    public async Task RunAsync_BrokerInAContainer_ConfluentLosesNothingAndMeetsAFloor()
    {
        if (TestDocker.WhyUnavailable() is { } why) Assert.Skip(why);
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
            .MessageCounts(5_000).PayloadSizes(100).Repeat(2).Build();

        var result = await broker.RunAsync(plan, [new ConfluentClientFactory()]);

        Assert.StartsWith("Kafka container from " + TestDocker.Image, result.Environment.BrokerDescription, StringComparison.Ordinal);
        PerformanceAssert.NoLossOrDuplicates(result);
        PerformanceAssert.ThroughputAtLeast(result, 1_000, "confluent");
    }

    [Fact]
    public async Task InContainer_FluentApi_RunsOnAContainerItRemovesAfter()
    {
        if (TestDocker.WhyUnavailable() is { } why) Assert.Skip(why);

        var result = await KafkaBenchmark.InContainer(TestDocker.Image).Clients("confluent").Produce(1_000, 100).Repeat(1).RunAsync(TestContext.Current.CancellationToken);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.Equal("4.3.1", result.Environment.BrokerVersion);
        // Only the class fixture's container is left in this process: the fluent run removed its own.
        Assert.Single(TestDocker.ContainersOf(Environment.ProcessId));
    }
}
