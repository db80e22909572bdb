using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Testing.Tests;

public class PerformanceAssertTests
{
    private static async Task<BenchmarkResult> InMemoryAsync(params (string Name, TimeSpan Delay)[] clients)
    {
        var plan = new BenchmarkPlanBuilder().Clients([.. clients.Select(c => c.Name)]).Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip)
            .MessageCounts(2_000).PayloadSizes(100).Repeat(10).Build();
        var factories = clients.Select(c => (IBenchClientFactory)new InMemoryClientFactory(new InMemoryClientOptions { Name = c.Name, SendDelay = c.Delay }));
        return await new BenchmarkRunner(new ClientRegistry(factories), ClusterConnection.None).RunAsync(plan);
    }

    [Fact]
    public async Task ThroughputAtLeast_Impossible_FailsWithTheMeasuredFigures()
    {
        var result = await InMemoryAsync(("a", TimeSpan.Zero));

        var ex = Assert.Throws<PerformanceAssertionException>(() => PerformanceAssert.ThroughputAtLeast(result, 1e15, "a"));

        Assert.StartsWith("Expected a median throughput of at least 1,000,000,000,000,000 msg/s; 2 of 2 cells missed it:", ex.Message, StringComparison.Ordinal);
        var measured = result.Cells.First(c => c.Scenario == ScenarioKind.Produce).MessagesPerSecond.Median;
        Assert.Contains($"| a | produce 2000 × 100 B (defaults) | 10 | 0 |", ex.Message, StringComparison.Ordinal);
        Assert.Contains($"| {measured.ToString("0", System.Globalization.CultureInfo.InvariantCulture)} |", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Assertions_Attainable_Pass()
    {
        var result = await InMemoryAsync(("a", TimeSpan.Zero));

        PerformanceAssert.ThroughputAtLeast(result, 1_000, "a");
        PerformanceAssert.MegabytesPerSecondAtLeast(result, 0.1);
        PerformanceAssert.LatencyAtMost(result, 99, TimeSpan.FromSeconds(5), "a", ScenarioKind.Roundtrip);
        PerformanceAssert.NoLossOrDuplicates(result);
    }

    [Fact]
    public async Task LatencyAtMost_Impossible_FailsAndNoLatencyAtAllIsNotAPass()
    {
        var result = await InMemoryAsync(("a", TimeSpan.Zero));

        Assert.Throws<PerformanceAssertionException>(() => PerformanceAssert.LatencyAtMost(result, 50, TimeSpan.FromTicks(1), "a", ScenarioKind.Roundtrip));
        var none = Assert.Throws<PerformanceAssertionException>(() => PerformanceAssert.LatencyAtMost(result, 50, TimeSpan.FromSeconds(1), "a", ScenarioKind.Produce));
        Assert.StartsWith("No matching cell measured latency", none.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NotSlowerThan_AAPassesAndAClearlySlowerCandidateFails()
    {
        // b is a; c takes 20 µs more per send than a's 10 µs: about 3 times slower.
        var result = await InMemoryAsync(("a", TimeSpan.FromTicks(100)), ("b", TimeSpan.FromTicks(100)), ("c", TimeSpan.FromTicks(300)));

        PerformanceAssert.NotSlowerThan(result, "b", "a", percent: 10);
        var ex = Assert.Throws<PerformanceAssertionException>(() => PerformanceAssert.NotSlowerThan(result, "c", "a", percent: 10));

        Assert.Contains("'c' is ", ex.Message, StringComparison.Ordinal);
        Assert.Contains("% slower than 'a' (95 % interval", ex.Message, StringComparison.Ordinal);
        Assert.Contains("| c | produce 2000 × 100 B (defaults) |", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NoLossOrDuplicates_ARunNotVerified_FailsWithItsReasonNotWithACount()
    {
        var result = await InMemoryAsync(("a", TimeSpan.Zero));
        var open = result.Runs.First(r => r is { Scenario: ScenarioKind.Roundtrip, IsWarmup: false });
        const string Reason = "12 acknowledged records not read: nothing new for 30 s; read to offset 1988 of 1999 on partition 0 in 30.4 s";
        var unverified = result with { Runs = [.. result.Runs.Select(r => r == open ? r with { NotVerified = 12, NotVerifiedReason = Reason } : r)] };

        var ex = Assert.Throws<PerformanceAssertionException>(() => PerformanceAssert.NoLossOrDuplicates(unverified));

        Assert.StartsWith("Expected every record accounted for; 1 run(s) could not be verified", ex.Message, StringComparison.Ordinal);
        Assert.Contains($"run {open.Sequence} (a roundtrip 2000 × 100 B): not verified: {Reason}", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("lost,", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("12 lost", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Filters_MatchingNothing_FailInsteadOfPassing()
    {
        var result = await InMemoryAsync(("a", TimeSpan.Zero));

        var ex = Assert.Throws<PerformanceAssertionException>(() => PerformanceAssert.ThroughputAtLeast(result, 1, "typo"));

        Assert.StartsWith("No cell matches (client typo, scenario any): clients are a.", ex.Message, StringComparison.Ordinal);
    }
}

/// <summary>The fixture on the real embedded broker, with the confluent client.</summary>
public sealed class KafkaBrokerFixtureTests(KafkaBrokerFixture broker) : IClassFixture<KafkaBrokerFixture>
{
    [Fact]
    public async Task RunAsync_OnTheEmbeddedBroker_ConfluentMeetsAFloorAndLosesNothing()
    {
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
            .MessageCounts(10_000).PayloadSizes(100).Repeat(3).Build();

        var result = await broker.RunAsync(plan, [new ConfluentClientFactory()]);

        Assert.Equal("4.3.1", result.Environment.BrokerVersion);
        PerformanceAssert.NoLossOrDuplicates(result);
        PerformanceAssert.ThroughputAtLeast(result, 5_000, "confluent");
    }
}
