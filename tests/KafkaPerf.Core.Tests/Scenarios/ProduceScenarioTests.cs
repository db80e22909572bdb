using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Scenarios;

public class ProduceScenarioTests
{
    [Theory]
    [InlineData(1, 1)]
    [InlineData(131_072, 1)]
    [InlineData(131_073, 2)]
    [InlineData(1_000_000, 8)]
    [InlineData(10_000_000, 128)]
    [InlineData(int.MaxValue, 16_384)]
    public void StrideFor_MessageCount_KeepsEveryRecordOrAtLeast65536Samples(long messages, int expected)
    {
        int stride = LatencySampling.StrideFor(messages);

        Assert.Equal(expected, stride);
        Assert.True(stride == 1 || messages / stride >= LatencySampling.MinimumSamples);
        Assert.True(messages / stride <= 2 * LatencySampling.MinimumSamples || stride == 1);
    }

    [Theory]
    [InlineData(1_000, 1, 1_000)]
    [InlineData(200_000, 2, 100_000)]
    public async Task Run_ClientWithAcknowledgements_TimesTheSampledKeysOnly(long messages, int stride, long timed)
    {
        var client = new InMemoryClient(new InMemoryClientOptions { ReportsDeliveryLatency = true });
        await client.CreateTopicAsync(new TopicSpec("t"), default);

        var m = Scenario.Produce.Run(new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = messages, Payload = new byte[10], Settings = ClientSettings.ClientDefaults,
        }, default);

        Assert.True(m.Succeeded, m.Error);
        Assert.Equal(messages, m.Delivered);
        Assert.Equal(stride, m.LatencySampleStride);
        Assert.Equal(timed, m.LatencyHistogram!.TotalCount);
    }
}
