using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Runs a test with a client and a fresh topic of its own, deleted afterwards whatever happens.</summary>
internal static class TemporaryTopic
{
    /// <param name="factory">The client under test.</param>
    /// <param name="connection">The broker.</param>
    /// <param name="test">The test, given the client and the topic's name.</param>
    public static async Task RunAsync(IBenchClientFactory factory, ClientConnection connection, Func<IBenchClient, string, Task> test)
    {
        await using var client = factory.Create(connection);
        var topic = $"kafkaperf-{factory.Name}-test-{Guid.NewGuid():N}";
        await client.CreateTopicAsync(new TopicSpec(topic), TestPaths.Timeout());
        try
        {
            await test(client, topic);
        }
        finally
        {
            await client.DeleteTopicAsync(topic, TestPaths.Timeout());
        }
    }
}
