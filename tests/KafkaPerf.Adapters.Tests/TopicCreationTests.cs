using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Topics a client is asked for at once (the runner creates a cell's topics together) go to the broker in as few
/// CreateTopics requests as the calls allow, each call still getting its own topic's outcome.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class TopicCreationTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    public async Task CreateTopicAsync_ManyAtOnceOneOfThemExisting_EachCreatedButThatOneWhichFailsAlone(string client)
    {
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(client), Connection, async (c, existing) =>
        {
            var names = Enumerable.Range(0, 8).Select(i => $"kafkaperf-{client}-together-{i}-{Guid.NewGuid():N}").ToList();
            try
            {
                var calls = names.Select(n => c.CreateTopicAsync(new TopicSpec(n, 2), TestPaths.Timeout()).AsTask())
                    .Append(c.CreateTopicAsync(new TopicSpec(existing), TestPaths.Timeout()).AsTask()).ToList();

                var failed = await Assert.ThrowsAsync<TopicExistsException>(() => calls[^1]);
                Assert.Equal(existing, failed.Topic);
                await Task.WhenAll(calls.Take(names.Count));
                // Each exists now: asked again, each is refused on its own.
                foreach (var name in names)
                    Assert.Equal(name, (await Assert.ThrowsAsync<TopicExistsException>(async () => await c.CreateTopicAsync(new TopicSpec(name), TestPaths.Timeout()))).Topic);
            }
            finally
            {
                foreach (var name in names) await c.DeleteTopicAsync(name, TestPaths.Timeout());
            }
        });
    }
}
