using HdrHistogram;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Core.Tests.Scenarios.Load;

/// <summary>Runs alone: a schedule's threads must not share the two cores with other tests' busy threads.</summary>
[CollectionDefinition(nameof(LoadScenarioTests), DisableParallelization = true)]
public sealed class LoadScenarioGroup;

[Collection(nameof(LoadScenarioTests))]
public class LoadScenarioTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Run_ProduceAtARate_KeepsTheRateAndTimesEveryRecord()
    {
        var m = await RunAsync(new InMemoryClientOptions { ReportsDeliveryLatency = true }, ScenarioKind.Produce,
            new RateLoad(20_000, TimeSpan.FromSeconds(1), TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(250)));

        Assert.True(m.Succeeded, m.Error);
        Assert.Equal(20_000, m.OfferedRate);
        // Never above the offered rate; a little under it when the machine stalls the last sends (a 10 ms stall is 1 % of 1 s).
        Assert.InRange(m.AchievedRate!.Value, 20_000 * 0.95, 20_000 * 1.01);
        Assert.Equal(24_000, m.Sent);
        Assert.Equal(4_000, m.WarmupRecords);
        // Every measured record timed, none of the warm-up.
        Assert.Equal(20_000, m.ResponseTimeHistogram!.TotalCount);
        Assert.Equal(20_000, m.ServiceTimeHistogram!.TotalCount);
        Assert.Equal(20_000, m.SendDelayHistogram!.TotalCount);
        Assert.Same(m.ResponseTimeHistogram, m.LatencyHistogram);
        // How close to its time each record goes out is a speed figure, measured in docs/BENCHMARKS.md, not here.
        Assert.InRange(m.ElapsedSeconds, 0.95, 1.5);
    }

    [Fact]
    public async Task Run_ClientStallsOneSend_ResponseTimeShowsTheStallAndServiceTimeDoesNot()
    {
        // At 10 000 records a second, record 6 000 (the 4 000th measured one) blocks in the client for 300 ms: the 3 000
        // records due meanwhile go out late. Their response time (from when they were due) holds the stall; their
        // service time (from when they were sent) does not - only the one blocked record's does.
        var m = await RunAsync(new InMemoryClientOptions { ReportsDeliveryLatency = true, PauseAtRecord = 6_000, PauseDuration = TimeSpan.FromMilliseconds(300) },
            ScenarioKind.Produce, new RateLoad(10_000, TimeSpan.FromSeconds(1), TimeSpan.FromMilliseconds(200), TimeSpan.FromSeconds(1)));

        Assert.True(m.Succeeded, m.Error);
        var response = m.ResponseTimeHistogram!;
        var service = m.ServiceTimeHistogram!;
        Assert.InRange(response.GetMaxValue(), 290_000_000, 400_000_000);
        Assert.True(response.GetValueAtPercentile(80) > 50_000_000, $"response p80 {response.GetValueAtPercentile(80) / 1e6} ms");
        Assert.True(service.GetValueAtPercentile(99) < 10_000_000, $"service p99 {service.GetValueAtPercentile(99) / 1e6} ms");
        Assert.InRange(service.GetMaxValue(), 290_000_000, 400_000_000);
        Assert.Equal(1, CountAbove(service, 100_000_000));
        Assert.InRange(CountAbove(response, 100_000_000), 1_500, 2_500);
        // The sender was late for those records, and says so.
        Assert.True(m.SendDelayHistogram!.GetMaxValue() > 250_000_000);
    }

    [Theory]
    [InlineData(ScenarioKind.Produce)]
    [InlineData(ScenarioKind.Roundtrip)]
    public async Task Run_ThreeProducersTwoConsumers_EveryKeyExactlyOnceAndIntervalsAddUpToTheRun(ScenarioKind kind)
    {
        var m = await RunAsync(new InMemoryClientOptions { ReportsDeliveryLatency = true }, kind,
            new RateLoad(30_000, TimeSpan.FromSeconds(1), TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(200)), producers: 3, consumers: 2);

        Assert.True(m.Succeeded, m.Error);
        Assert.Equal(33_000, m.Sent);
        Assert.Equal(33_000, m.Delivered);
        if (kind == ScenarioKind.Roundtrip)
        {
            Assert.Equal(33_000, m.Received);
            Assert.Equal(0, m.Duplicates);
            Assert.Equal(0, m.Unexpected);
        }
        var intervals = m.Intervals!;
        Assert.InRange(intervals.Count, 5, 9);
        Assert.Equal(m.Sent, intervals.Sum(i => i.Sent));
        Assert.Equal(m.Delivered, intervals.Sum(i => i.Acknowledged));
        Assert.Equal(m.Received, intervals.Sum(i => i.Consumed));
        Assert.Equal(m.ResponseTimeHistogram!.TotalCount, intervals.Sum(i => i.ResponseTime?.Count ?? 0));
        Assert.Equal(m.ServiceTimeHistogram!.TotalCount, intervals.Sum(i => i.ServiceTime?.Count ?? 0));
        Assert.Equal(m.SendDelayHistogram!.TotalCount, intervals.Sum(i => i.SendDelay?.Count ?? 0));
        Assert.Equal(30_000, m.ResponseTimeHistogram.TotalCount);
        Assert.True(intervals[0].Warmup);
        Assert.False(intervals[^1].Warmup);
        Assert.Equal(3, m.Producers);
    }

    [Fact]
    public async Task Run_BurstWithTwoProducers_SendsEveryRecordAndTimesServiceOnly()
    {
        var m = await RunAsync(new InMemoryClientOptions { ReportsDeliveryLatency = true }, ScenarioKind.Roundtrip, load: null, producers: 2, consumers: 1, burst: 50_000);

        Assert.True(m.Succeeded, m.Error);
        Assert.Equal(50_000, m.Received);
        Assert.Null(m.ResponseTimeHistogram);
        Assert.Null(m.SendDelayHistogram);
        Assert.Equal(50_000, m.ServiceTimeHistogram!.TotalCount);
        Assert.Null(m.OfferedRate);
    }

    [Fact]
    public async Task Run_ShortBurstWithTwoProducers_IsTimedFromItsFirstSend()
    {
        // 500 records to memory take microseconds: sent before the measured section's start (a few ms after the producers
        // are ready), they used to end before it began, and the run had no time (NaN) though it succeeded.
        for (int i = 0; i < 5; i++)
        {
            var m = await RunAsync(new InMemoryClientOptions(), ScenarioKind.Produce, load: null, producers: 2, burst: 500);

            Assert.True(m.Succeeded, m.Error);
            Assert.True(double.IsFinite(m.ElapsedSeconds) && m.ElapsedSeconds > 0, $"elapsed {m.ElapsedSeconds}");
        }
    }

    [Fact]
    public async Task Run_ConsumeWithTwoConsumers_ReadsEveryKeyOnceFromAFilledTopic()
    {
        var m = await RunAsync(new InMemoryClientOptions(), ScenarioKind.Consume, load: null, producers: 1, consumers: 2, burst: 40_000, partitions: 4);

        Assert.True(m.Succeeded, m.Error);
        Assert.Equal(40_000, m.Received);
        Assert.Equal(0, m.Lost);
        Assert.Equal(0, m.Duplicates);
    }

    private static long CountAbove(HistogramBase histogram, long nanoseconds) =>
        histogram.RecordedValues().Where(v => histogram.LowestEquivalentValue(v.ValueIteratedTo) > nanoseconds).Sum(v => v.CountAtValueIteratedTo);

    private static async Task<RunRecord> RunAsync(InMemoryClientOptions options, ScenarioKind kind, RateLoad? load,
        int producers = 1, int consumers = 1, long burst = 0, int partitions = 0)
    {
        var client = new InMemoryClient(options);
        await client.CreateTopicAsync(new TopicSpec("t", Math.Max(partitions, consumers)), default);
        using var timeout = new CancellationTokenSource(Timeout);
        var context = new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = load?.MeasuredRecords ?? burst, Payload = new byte[100],
            Settings = ClientSettings.ClientDefaults, Load = load, Producers = producers, Consumers = consumers,
            Interval = load?.Interval ?? TimeSpan.FromMilliseconds(100),
        };
        return await Task.Run(() => LoadScenario.For(kind).Run(context, timeout.Token));
    }
}
