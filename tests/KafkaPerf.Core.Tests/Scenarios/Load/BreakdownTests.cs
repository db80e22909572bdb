using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Core.Tests.Scenarios.Load;

/// <summary>Where each interval's time went (issue 34): the sampler reads every producer's own figures and the
/// collections once per interval, on its own thread; the producers collect statistics only when asked.</summary>
public class BreakdownTests
{
    [Fact]
    public async Task RateRun_EveryIntervalHasTheProducersFiguresAveragedAndTheRuntimesCollectionsInIt()
    {
        var client = new ReportingClient();

        var m = await RunAsync(client, new RateLoad(2_000, TimeSpan.FromSeconds(1.5), TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(250)), producers: 2, breakdown: true);

        Assert.True(m.Succeeded, m.Error);
        Assert.All(client.Specs, s => Assert.True(s.Statistics));
        Assert.Equal(2, client.Producers.Count);
        var intervals = m.Intervals!;
        Assert.All(intervals, i =>
        {
            var b = i.Breakdown!;
            // The two producers say 2 and 4 ms of queueing: the mean; the batch size only one of them says.
            Assert.Equal(3, b.QueueMs!.Value, 6);
            Assert.Equal(10, b.RequestMs!.Value, 6);
            Assert.Equal(512, b.BatchBytes!.Value, 6);
            Assert.Null(b.ThrottleMs);
            Assert.True(b.DotnetGcPauseMs >= 0);
            Assert.True(b.RuntimeGcMs >= 0);
        });
        // Each interval has the runtime's collections since the last one (3 ms per reading here; the run's own readings
        // around the timed section read it too): whole readings, within what the runtime reported over the run.
        double collected = intervals.Sum(i => i.Breakdown!.RuntimeGcMs!.Value);
        Assert.True(collected > 0 && collected % 3 == 0, $"{collected} ms");
        Assert.True(collected <= client.GcMillisReadLast - client.GcMillisReadFirst, $"{collected} ms");
        Assert.True(client.Producers.All(p => p.Reads > 0));
    }

    [Fact]
    public async Task NoBreakdown_NoStatisticsAskedForAndNoneRecorded()
    {
        var client = new ReportingClient();

        var m = await RunAsync(client, new RateLoad(2_000, TimeSpan.FromSeconds(0.6), TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(200)), producers: 1, breakdown: false);

        Assert.True(m.Succeeded, m.Error);
        Assert.All(client.Specs, s => Assert.False(s.Statistics));
        Assert.All(m.Intervals!, i => Assert.Null(i.Breakdown));
        Assert.All(client.Producers, p => Assert.Equal(0, p.Reads));
    }

    [Fact]
    public async Task RateRun_TheBrokersFiguresInEveryInterval_ItsCountStartedBeforeTheFirst()
    {
        var broker = new CountingBroker();

        var m = await RunAsync(new ReportingClient(), new RateLoad(2_000, TimeSpan.FromSeconds(1), TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(250)), producers: 1, breakdown: true, broker);

        Assert.True(m.Succeeded, m.Error);
        // One call starts the count, then one per interval, each interval with the figures since the call before it.
        Assert.Equal(m.Intervals!.Count + 1, broker.Calls);
        Assert.Equal(Enumerable.Range(1, m.Intervals.Count).Select(n => (long)n), m.Intervals.Select(i => i.Breakdown!.Broker!.Produce!.Requests));
    }

    [Fact]
    public async Task RateRun_ABrokerThatFailsToAnswer_LeavesOnlyItsFiguresOut()
    {
        var m = await RunAsync(new ReportingClient(), new RateLoad(2_000, TimeSpan.FromSeconds(0.6), TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(200)), producers: 1, breakdown: true, new CountingBroker { Fails = true });

        Assert.True(m.Succeeded, m.Error);
        Assert.All(m.Intervals!, i => Assert.Null(i.Breakdown!.Broker));
        Assert.All(m.Intervals!, i => Assert.Equal(2, i.Breakdown!.QueueMs!.Value, 6));
    }

    [Fact]
    public async Task Burst_HasTheRunsBreakdown_OverItsTimedSection()
    {
        var client = new ReportingClient();
        var broker = new CountingBroker();
        await client.CreateTopicAsync(new TopicSpec("t"), default);
        var context = new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = 20_000, Payload = new byte[100], Settings = new ClientSettings(), Breakdown = true, BrokerBreakdown = broker,
        };

        var m = await Task.Run(() => new ProduceScenario().Run(context, TestContext.Current.CancellationToken));

        Assert.True(m.Succeeded, m.Error);
        Assert.Null(m.Intervals);
        var b = Assert.IsType<IntervalBreakdown>(m.Breakdown);
        Assert.True(Assert.Single(client.Specs).Statistics);
        // Read at least once, at the end: the producer's own figure; the broker's count from before the section to after it.
        Assert.Equal(2, b.QueueMs!.Value, 6);
        Assert.Equal(2, broker.Calls);
        Assert.Equal(1, b.Broker!.Produce!.Requests);
        Assert.True(b.RuntimeGcMs >= 3);

        var bare = await Task.Run(() => new ProduceScenario().Run(context with { Breakdown = false }, TestContext.Current.CancellationToken));
        Assert.Null(bare.Breakdown);
        Assert.False(client.Specs[^1].Statistics);
    }

    private static async Task<RunRecord> RunAsync(ReportingClient client, RateLoad load, int producers, bool breakdown, IBrokerBreakdown? broker = null)
    {
        await client.CreateTopicAsync(new TopicSpec("t"), default);
        var context = new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = load.MeasuredRecords, Payload = new byte[100], Load = load, Interval = load.Interval,
            Settings = new ClientSettings(), Producers = producers, Breakdown = breakdown, BrokerBreakdown = broker,
        };
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        return await Task.Run(() => LoadScenario.For(ScenarioKind.Produce).Run(context, timeout.Token));
    }

    /// <summary>A broker whose every interval has one more produce request than the one before; or that fails to answer.</summary>
    private sealed class CountingBroker : IBrokerBreakdown, IBrokerBreakdownCount
    {
        public IBrokerBreakdownCount NewCount() => this;

        private int _calls;

        public bool Fails { get; init; }

        public int Calls => Volatile.Read(ref _calls);

        public BrokerBreakdown? TakeInterval(TimeSpan wait)
        {
            int call = Interlocked.Increment(ref _calls);
            if (Fails) throw new InvalidOperationException("the node's JVM is gone");
            return call == 1 ? null : new BrokerBreakdown { Produce = new BrokerRequestTimes(call - 1, 1, 2, 0, 1, 4), GcMs = 0 };
        }
    }

    /// <summary>The in-memory client, whose producers say fixed figures and whose "runtime" collects 3 ms per reading.</summary>
    private sealed class ReportingClient : IBenchClient, IRuntimeProbe
    {
        private readonly InMemoryClient _inner = new(new InMemoryClientOptions());
        private long _gcMillis;

        public List<ProducerSpec> Specs { get; } = [];

        public List<FiguresProducer> Producers { get; } = [];

        public long GcMillisReadFirst { get; private set; } = -1;

        public long GcMillisReadLast { get; private set; }

        public string Name => "reporting";

        public string LibraryVersion => "1";

        public ClientCapabilities Capabilities => _inner.Capabilities;

        public RuntimeReading ReadRuntime()
        {
            long now = Interlocked.Add(ref _gcMillis, 3);
            if (GcMillisReadFirst < 0) GcMillisReadFirst = now;
            GcMillisReadLast = now;
            return new RuntimeReading(now / 3, now, 1_000);
        }

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
        {
            FiguresProducer producer;
            lock (Producers)
            {
                Specs.Add(spec);
                producer = new FiguresProducer(_inner.CreateProducer(spec, sink), queueMs: Producers.Count == 0 ? 2 : 4, batchBytes: Producers.Count == 0 ? 512 : null);
                Producers.Add(producer);
            }
            return producer;
        }

        public IBenchConsumer CreateConsumer(ConsumerSpec spec) => _inner.CreateConsumer(spec);

        public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken) => _inner.CreateTopicAsync(topic, cancellationToken);

        public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) => _inner.DeleteTopicAsync(topic, cancellationToken);

        public ValueTask DisposeAsync() => _inner.DisposeAsync();
    }

    private sealed class FiguresProducer(IBenchProducer inner, double queueMs, double? batchBytes) : IBenchProducer, IClientBreakdown
    {
        private int _reads;

        public int Reads => Volatile.Read(ref _reads);

        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public ClientBreakdown ReadBreakdown()
        {
            Interlocked.Increment(ref _reads);
            return new ClientBreakdown(queueMs, 10, batchBytes, null, null);
        }

        public void Send(long key, ReadOnlyMemory<byte> value) => inner.Send(key, value);

        public void Flush(CancellationToken cancellationToken) => inner.Flush(cancellationToken);

        public void Dispose() => inner.Dispose();
    }
}
