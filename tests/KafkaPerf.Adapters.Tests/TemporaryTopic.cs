using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Runs a test with a client and a fresh topic of its own, deleted afterwards whatever happens.</summary>
internal static class TemporaryTopic
{
    /// <param name="factory">The client under test.</param>
    /// <param name="connection">The broker.</param>
    /// <param name="test">The test, given the client and the topic's name.</param>
    /// <param name="partitions">Partitions of the topic.</param>
    public static async Task RunAsync(IBenchClientFactory factory, ClusterConnection connection, Func<IBenchClient, string, Task> test, int partitions = 1)
    {
        await using var client = factory.Create(connection.Endpoint);
        var topic = $"kafkaperf-{factory.Name}-test-{Guid.NewGuid():N}";
        await client.CreateTopicAsync(new TopicSpec(topic, partitions), TestPaths.Timeout());
        try
        {
            await test(client, topic);
        }
        finally
        {
            await client.DeleteTopicAsync(topic, TestPaths.Timeout());
        }
    }

    /// <summary>A built-in client by its name, the Java ones on the tests' JVM.</summary>
    public static IBenchClientFactory Factory(string name) => name switch
    {
        "confluent" => new ConfluentClientFactory(),
        "confluent-async" => new ConfluentClientFactory(style: ConfluentStyle.AsyncWindow),
        "confluent-records" => new ConfluentClientFactory(style: ConfluentStyle.RecordConsume),
        "java" => new JavaClientFactory(JavaStyle.PerRecord, JavaTestJvm.Options),
        "java-batched" => new JavaClientFactory(JavaStyle.Batched, JavaTestJvm.Options),
        "java-records" => new JavaClientFactory(JavaStyle.Records, JavaTestJvm.Options),
        _ => throw new ArgumentException($"No client '{name}'.", nameof(name)),
    };
}
