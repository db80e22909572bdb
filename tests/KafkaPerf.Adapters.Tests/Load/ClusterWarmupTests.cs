using System.Text.RegularExpressions;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Load;

/// <summary>The cluster warm-up before a plan's first run, on the real embedded broker.</summary>
[Collection(SecondBrokerCollectionDefinition.Name)]
public sealed class ClusterWarmupTests(BrokerFixture fixture)
{
    [Fact]
    public async Task RunAsync_ClusterWarmup_BothClientsWarmTheBrokerInTurnAndTheirTopicsAreGone()
    {
        string prefix = $"kafkaperf-warmup-{Guid.NewGuid():N}";
        var plan = new BenchmarkPlanBuilder().Clients("confluent", "java").Scenarios(ScenarioKind.Produce).MessageCounts(1_000).PayloadSizes(1_000)
            .Repeat(1).Warmup(false).ClusterWarmup(TimeSpan.FromSeconds(3)).Topics(prefix).Build();
        var connection = new ClusterConnection(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion) { BrokerDescription = "embedded" };
        var runner = new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory(), new JavaClientFactory(false, JavaTestJvm.Options)]), connection);

        var result = await runner.RunAsync(plan, cancellationToken: TestPaths.Timeout());

        // Rounds of 16 777 records of 1 KB (16 MiB), confluent's first, then java's, for 3 s (a first round on a broker that
        // just started can take all of it), none failed.
        Assert.True(Regex.IsMatch(result.ClusterWarmup ?? "", @"^\d+ round\(s\) of 16,777 × 1,000 B produced and consumed by confluent(, java)?(, (confluent|java))*( in turn)?, \d+\.\d s$"),
            result.ClusterWarmup);
        // The warm-up is in no run: the plan's two measured runs only.
        Assert.Equal(2, result.Runs.Count);
        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.DoesNotContain(result.Runs, r => r.Topic.Contains("cluster-warmup", StringComparison.Ordinal));
        // Every round deleted its topic, as every run does (the broker's metadata may take a moment to say so).
        ConfluentNativeLibrary.EnsureLoaded();
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Broker.BootstrapServers }).Build();
        List<string> Left() => [.. admin.GetMetadata(TimeSpan.FromSeconds(10)).Topics.Select(t => t.Topic).Where(t => t.StartsWith(prefix, StringComparison.Ordinal))];
        for (int i = 0; i < 50 && Left().Count > 0; i++) await Task.Delay(100, TestContext.Current.CancellationToken);
        Assert.Empty(Left());
    }
}
