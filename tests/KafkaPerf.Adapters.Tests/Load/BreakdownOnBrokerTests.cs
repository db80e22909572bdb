using KafkaPerf.Adapters.Java;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Adapters.Tests.Load;

/// <summary>Where a record's time went (issue 34) on the real embedded broker, from each client's own statistics: a
/// large linger shows as time in the client's queue, the client's figures fit inside the service time KafkaPerf measures,
/// and a forced collection of the client's JVM and of .NET shows in the interval it happened in.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class BreakdownOnBrokerTests(BrokerFixture fixture)
{
    private ClientConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    public async Task LingerOf200ms_ShowsAsQueueingTime_AndTheClientsFiguresFitInTheServiceTime(string clientName)
    {
        var quick = await RunAsync(clientName, lingerMs: 0);
        var lingering = await RunAsync(clientName, lingerMs: 200);

        double quickQueue = Mean(quick, b => b.QueueMs), lingeringQueue = Mean(lingering, b => b.QueueMs);
        // At 1 000 records of 100 B a second the Java client's 16 KB batches fill in about 160 ms, before the linger ends.
        Assert.True(lingeringQueue >= 50, $"{clientName}: {lingeringQueue:0.0} ms in the queue with linger.ms=200");
        Assert.True(quickQueue < 30, $"{clientName}: {quickQueue:0.0} ms in the queue with linger.ms=0");
        Assert.True(Mean(quick, b => b.RequestMs) > 0);
        Assert.True(Mean(quick, b => b.BatchBytes) > 0);
        foreach (var run in new[] { quick, lingering })
        {
            // Queue + network and broker is part of what KafkaPerf measures from send to acknowledgement: within the
            // clients' 1 s windows, never above the slowest service time of the run.
            double parts = Mean(run, b => b.QueueMs) + Mean(run, b => b.RequestMs);
            double slowest = run.Intervals!.Where(i => !i.Warmup && i.ServiceTime is not null).Max(i => i.ServiceTime!.MaxMicros) / 1000;
            Assert.True(parts <= slowest, $"{clientName}: queue + request {parts:0.0} ms, slowest service time {slowest:0.0} ms");
        }
    }

    [Fact]
    public async Task ForcedCollections_ShowInTheIntervalsOfTheJvmAndOfDotnet()
    {
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory("java"), Connection, async (client, topic) =>
        {
            var load = new RateLoad(1_000, TimeSpan.FromSeconds(3), TimeSpan.FromMilliseconds(500), TimeSpan.FromMilliseconds(500));
            var context = Context(client, topic, load, lingerMs: 1);
            var collector = Task.Run(async () =>
            {
                await Task.Delay(TimeSpan.FromSeconds(1.5));
                ((JavaClient)client).CollectGarbage();
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            });

            var m = await Task.Run(() => LoadScenario.For(ScenarioKind.Produce).Run(context, TestPaths.Timeout()));
            await collector;

            Assert.True(m.Succeeded, m.Error);
            var intervals = m.Intervals!;
            Assert.Contains(intervals, i => i.Breakdown!.RuntimeGcMs > 0);
            Assert.Contains(intervals, i => i.Breakdown!.DotnetGcPauseMs > 0);
            // The series' JVM collections add up to no more than the JVM's own total over the run, read around it.
            Assert.True(intervals.Where(i => !i.Warmup).Sum(i => i.Breakdown!.RuntimeGcMs ?? 0) <= m.Resources!.RuntimeGcMillis + 5);
        });
    }

    private async Task<RunRecord> RunAsync(string clientName, int lingerMs)
    {
        RunRecord? record = null;
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, async (client, topic) =>
        {
            var load = new RateLoad(1_000, TimeSpan.FromSeconds(3), TimeSpan.FromMilliseconds(500), TimeSpan.FromMilliseconds(500));
            record = await Task.Run(() => LoadScenario.For(ScenarioKind.Produce).Run(Context(client, topic, load, lingerMs), TestPaths.Timeout()));
        });
        Assert.True(record!.Succeeded, record.Error);
        Assert.All(record.Intervals!, i => Assert.NotNull(i.Breakdown));
        return record;
    }

    private static ScenarioContext Context(IBenchClient client, string topic, RateLoad load, int lingerMs) => new()
    {
        Client = client, Topic = topic, MessageCount = load.MeasuredRecords, Payload = new byte[100], Load = load, Interval = load.Interval,
        Settings = new ClientSettings { LingerMs = lingerMs, Acks = AcksMode.Leader }, Breakdown = true, StallTimeout = TimeSpan.FromSeconds(20),
    };

    /// <summary>A figure's mean over the measured intervals that have it (the first second may have none yet).</summary>
    private static double Mean(RunRecord run, Func<IntervalBreakdown, double?> figure)
    {
        var values = run.Intervals!.Where(i => !i.Warmup).Select(i => figure(i.Breakdown!)).OfType<double>().ToList();
        Assert.NotEmpty(values);
        return values.Average();
    }
}
