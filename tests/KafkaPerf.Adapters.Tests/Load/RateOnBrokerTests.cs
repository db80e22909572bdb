using System.Diagnostics;
using HdrHistogram;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Load;

/// <summary>Load at a rate on the real embedded broker, for every client: the schedule, several producers and
/// consumers, and a broker that stalls.</summary>
[Collection(SecondBrokerCollectionDefinition.Name)]
public sealed class RateOnBrokerTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion) { BrokerDescription = "embedded" };

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    [InlineData("java-batched")]
    public async Task RunAsync_TwoProducersTwoConsumersAtARate_EveryKeyOnceAndTheRateKept(string client)
    {
        var plan = new BenchmarkPlanBuilder().Clients(client).Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip).PayloadSizes(100)
            .Rates(2_000).Duration(TimeSpan.FromSeconds(2)).LoadWarmup(TimeSpan.FromMilliseconds(500)).Producers(2).Consumers(2)
            .Settings(new ClientSettings { Acks = AcksMode.Leader, LingerMs = 1, BatchSizeBytes = 1_000_000, MaxInFlight = 5 }).Repeat(1).Build();

        var result = await Runner().RunAsync(plan, cancellationToken: TestPaths.Timeout());

        Assert.Equal(2, result.Runs.Count);
        foreach (var run in result.Runs)
        {
            Assert.True(run.Succeeded, $"{run.Scenario}: {run.Error}");
            Assert.Equal(5_000, run.Sent);
            Assert.Equal(2, run.Producers);
            // Every record was sent (above); the schedule kept within 10 %, the last of 4 000 sends at most 200 ms late: a
            // 2-core machine busy with other tests stalls that long (CI saw 1.06 % for confluent and 5.3 % for java-batched).
            Assert.InRange(run.AchievedRate!.Value, 2_000 * 0.90, 2_000 * 1.01);
            Assert.Equal(4_000, run.ResponseTime!.Count);
            Assert.Equal(run.Sent, run.Intervals!.Sum(i => i.Sent));
            // A sender on time and a client at a tenth of its capacity: most records answer within 200 ms (java-batched
            // included, which hands its partial batch over whenever the schedule waits).
            Assert.True(run.ResponseTime.P50Micros < 200_000, $"{run.Scenario} response p50 {run.ResponseTime.P50Micros} µs");
        }
        var roundtrip = result.Runs.Single(r => r.Scenario == ScenarioKind.Roundtrip);
        Assert.Equal(5_000, roundtrip.Received);
        Assert.Equal(0, roundtrip.Duplicates);
        Assert.Equal(2, roundtrip.Consumers);
    }

    [Fact]
    public async Task RunAsync_BrokerPausedForOneSecond_ResponseTimeHoldsTheStall()
    {
        // A broker of its own: pausing the shared one would stall the other tests.
        await using var broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { HeapMegabytes = 384 }, TestPaths.Timeout());
        var connection = new ClusterConnection(broker.BootstrapServers, broker.KafkaVersion);
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(1_000).Duration(TimeSpan.FromSeconds(4)).LoadWarmup(TimeSpan.FromMilliseconds(500))
            .Settings(new ClientSettings { Acks = AcksMode.Leader, LingerMs = 1 }).Repeat(1).Build();
        using var pause = new CancellationTokenSource();
        var pauser = Task.Run(async () =>
        {
            // Into the measured part, then SIGSTOP for one second and SIGCONT.
            await Task.Delay(TimeSpan.FromSeconds(2.5), pause.Token);
            Signal("STOP", broker.ProcessId);
            await Task.Delay(TimeSpan.FromSeconds(1));
            Signal("CONT", broker.ProcessId);
        });

        var result = await new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory()]), connection).RunAsync(plan, cancellationToken: TestPaths.Timeout());
        await pauser;

        var run = Assert.Single(result.Runs);
        Assert.True(run.Succeeded, run.Error);
        // Every record due during the pause waited for the broker: the slowest about the pause, and about a thousand of
        // the 4 000 well above the usual few milliseconds.
        var response = run.ResponseTimeHistogram!;
        // The top: the pause plus the recovery, which a 2-core machine busy with other tests stretches (CI saw 3.3, 5.3,
        // 5.6 and once 11.0 s: a broker started for the test, cold, recovering beside three other test processes; 1-2 s
        // alone or beside stress-ng --cpu 2). Bounded all the same: a sender or a broker that never recovered would not be.
        Assert.InRange(response.GetMaxValue(), 800_000_000, 30_000_000_000);
        long slow = response.RecordedValues().Where(v => response.LowestEquivalentValue(v.ValueIteratedTo) > 100_000_000).Sum(v => v.CountAtValueIteratedTo);
        // At least the half second's worth of records due in the middle of the pause. No upper bound: a machine busy
        // with other work (CI beside a build) made every record of the run slow, which is the machine, not the pause;
        // the intervals below show the pause itself.
        Assert.True(slow >= 500, $"{slow} records slower than 100 ms");
        // The sender was not held by the pause (librdkafka queues while the broker is stopped): the stall is the broker's,
        // not the load generator's, and the time series shows the acknowledgements stop and catch up. A sender held by it
        // would have sent the quarter of the records due in the pause up to a second late, a p99 near the pause; a busy
        // machine delays it by its own scheduling (105 ms in a CI run beside another test assembly, under 50 ms in earlier runs),
        // so the bound is half the pause, which tells the two apart.
        Assert.True(run.SendDelay!.P99Micros < 500_000, $"send delay p99 {run.SendDelay.P99Micros} µs");
        // The interval that holds the pause shows it. Not by its acknowledgements: a 1 s pause spans two 1 s intervals, and
        // how many each acknowledged depends on where the pause fell (one started 0.9 s into an interval leaves it 900;
        // CI once saw 530 where this asked for fewer than 500). By the wait of the records caught in it, whatever its phase.
        Assert.Contains(run.Intervals!, i => !i.Warmup && i.ResponseTime is { MaxMicros: > 800_000 });
        // librdkafka's own figures say where: requests that waited on the stopped broker (its round trip), not the client.
        double slowestRequest = run.Intervals!.Where(i => !i.Warmup).Max(i => i.Breakdown?.RequestMs ?? 0);
        // The figure is librdkafka's mean round trip over its last second, so the interval holding the pause averages the
        // requests caught by it (about a second each) with the ones sent after it: 540-680 ms here alone, 1.8 s on CI. A
        // broker just started answers slowly too (100-130 ms here, up to 710 ms on a loaded CI machine), so the pause is
        // told from it by its size and against the fastest interval, not by a ratio that such a baseline defeats.
        var requests = run.Intervals!.Where(i => !i.Warmup).Select(i => i.Breakdown?.RequestMs ?? 0).ToList();
        Assert.True(slowestRequest >= 300 && slowestRequest >= 2 * requests.Min(), $"request round trips per interval: {string.Join(", ", requests.Select(r => r.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture)))} ms");
    }

    private BenchmarkRunner Runner() => new(new ClientRegistry(
    [
        new ConfluentClientFactory(), new JavaClientFactory(false, JavaTestJvm.Options), new JavaClientFactory(true, JavaTestJvm.Options),
    ]), Connection);

    private static void Signal(string signal, int pid)
    {
        using var kill = Process.Start(new ProcessStartInfo("kill", ["-" + signal, pid.ToString(System.Globalization.CultureInfo.InvariantCulture)]) { UseShellExecute = false })!;
        kill.WaitForExit();
        Assert.Equal(0, kill.ExitCode);
    }
}
