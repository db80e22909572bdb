using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Core.Tests.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Scenarios;

public class ConsumeScenarioTests
{
    [Fact]
    public async Task Run_AConsumerThatWorksBeforeItsAssignment_ItsResourcesCountFromTheAssignmentAsItsTimeDoes()
    {
        // 400 ms of CPU before the partition is assigned (what a group join costs some clients), then 1 000 records.
        var factory = new TestClientFactory(new InMemoryClientOptions { Name = "joining" }) { JoinCpu = TimeSpan.FromMilliseconds(400) };
        await using var client = factory.Create(KafkaEndpoint.None);
        await client.CreateTopicAsync(new TopicSpec("t"), default);

        var run = Scenario.Consume.Run(new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = 1_000, Payload = new byte[10], Settings = ClientSettings.ClientDefaults,
        }, default);

        Assert.True(run.Succeeded, run.Error);
        // Before, the resources were read from before the consumer started: the join's 400 ms were in them, in a consume
        // timed from the assignment (a java consume of 10 000 records read 316 % of a core on a 2-core machine).
        Assert.True(run.Resources!.CpuSeconds < 0.2, $"{run.Resources.CpuSeconds} s of CPU in a consume of {run.ElapsedSeconds} s");
    }
}
