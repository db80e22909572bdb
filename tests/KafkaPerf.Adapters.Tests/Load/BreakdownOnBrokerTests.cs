using KafkaPerf.Adapters.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Adapters.Tests.Load;

/// <summary>Where a record's time went (issue 34) on the real embedded broker, from each client's own statistics: a
/// large linger shows as time in the client's queue, the client's figures fit inside the service time KafkaPerf measures,
/// a forced collection of the client's JVM, of .NET and of the broker shows in the interval it happened in; consumers
/// and the broker's request metrics say where a roundtrip's and a burst's time went.</summary>
[Collection(SecondBrokerCollectionDefinition.Name)]
public sealed class BreakdownOnBrokerTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    public async Task RoundtripAtARate_ConsumersAndTheBrokerSayWhereTheTimeWent(string clientName)
    {
        RunRecord? m = null;
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, async (client, topic) =>
        {
            var load = new RateLoad(1_000, TimeSpan.FromSeconds(3), TimeSpan.FromMilliseconds(500), TimeSpan.FromMilliseconds(500));
            var context = Context(client, topic, load, lingerMs: 1) with { BrokerBreakdown = fixture.Broker.Breakdown };
            m = await Task.Run(() => LoadScenario.For(ScenarioKind.Roundtrip).Run(context, TestPaths.Timeout()));
        });
        Assert.True(m!.Succeeded, m.Error);
        var measured = m.Intervals!.Where(i => !i.Warmup).ToList();
        Assert.True(Mean(m, b => b.FetchMs) > 0, $"{clientName}: no fetch time from the consumer");
        // The broker saw the run's produce and fetch requests, split in parts that add up to their whole: each part and the
        // whole rounded to a millisecond per request by the broker, so within 2.5 ms of each other.
        var produce = measured.Select(i => i.Breakdown!.Broker?.Produce).OfType<BrokerRequestTimes>().ToList();
        var fetch = measured.Select(i => i.Breakdown!.Broker?.Fetch).OfType<BrokerRequestTimes>().ToList();
        Assert.NotEmpty(produce);
        Assert.NotEmpty(fetch);
        foreach (var t in produce.Concat(fetch))
        {
            Assert.True(t.Requests > 0);
            double parts = t.QueueMs + t.LocalMs + t.RemoteMs + t.ResponseMs;
            Assert.True(Math.Abs(parts - t.TotalMs) <= 2.5, $"{clientName}: parts {parts:0.00} ms, total {t.TotalMs:0.00} ms ({t})");
        }
        // A produce request's time in the broker is part of its round trip as the client measured it (over the run: the
        // client's windows are its own seconds; the broker rounds each request up or down by half a millisecond).
        double broker = produce.Sum(t => t.TotalMs * t.Requests) / produce.Sum(t => t.Requests);
        Assert.True(broker <= Mean(m, b => b.RequestMs) + 1, $"{clientName}: broker {broker:0.00} ms per produce, client round trip {Mean(m, b => b.RequestMs):0.00} ms");
    }

    [Theory]
    [InlineData("confluent")]
    [InlineData("java")]
    public async Task ConsumeBurst_HasARunBreakdown_FromTheBroker(string clientName)
    {
        RunRecord? m = null;
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, async (client, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = 50_000, Payload = new byte[100], Settings = new ClientSettings(), Breakdown = true,
                BrokerBreakdown = fixture.Broker.Breakdown, StallTimeout = TimeSpan.FromSeconds(20),
            };
            m = await Task.Run(() => new ConsumeScenario().Run(context, TestPaths.Timeout()));
        });
        Assert.True(m!.Succeeded, m.Error);
        // No intervals in a burst: the run's own breakdown, over its timed section.
        Assert.Null(m.Intervals);
        var breakdown = Assert.IsType<IntervalBreakdown>(m.Breakdown);
        Assert.True(breakdown.Broker?.Fetch?.Requests > 0, $"{clientName}: the broker counted no fetch");
        Assert.True(breakdown.DotnetGcPauseMs >= 0);
    }

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
    public async Task ForcedCollections_ShowInTheIntervalsOfTheJvmOfDotnetAndOfTheBroker()
    {
        await TemporaryTopic.RunAsync(TemporaryTopic.Factory("java"), Connection, async (client, topic) =>
        {
            var load = new RateLoad(1_000, TimeSpan.FromSeconds(3), TimeSpan.FromMilliseconds(500), TimeSpan.FromMilliseconds(500));
            var context = Context(client, topic, load, lingerMs: 1) with { BrokerBreakdown = fixture.Broker.Breakdown };
            var collector = Task.Run(async () =>
            {
                await Task.Delay(TimeSpan.FromSeconds(1.5));
                ((JavaClient)client).CollectGarbage();
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                await fixture.Broker.CollectGarbageAsync(TestPaths.Timeout());
            });

            var m = await Task.Run(() => LoadScenario.For(ScenarioKind.Produce).Run(context, TestPaths.Timeout()));
            await collector;

            Assert.True(m.Succeeded, m.Error);
            var intervals = m.Intervals!;
            Assert.Contains(intervals, i => i.Breakdown!.RuntimeGcMs > 0);
            Assert.Contains(intervals, i => i.Breakdown!.DotnetGcPauseMs > 0);
            Assert.Contains(intervals, i => i.Breakdown!.Broker?.GcCount > 0);
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
