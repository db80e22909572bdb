using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Core.Tests.Scenarios.Load;

/// <summary>A roundtrip's consumer backlog (<c>--backlog</c>): the consumers start once the backlog is acknowledged, read
/// everything, and the run says when they caught up and how fast they drained.</summary>
public class BacklogTests
{
    [Fact]
    public async Task Roundtrip_ConsumersWaitForTheBacklogThenCatchUpAndEveryRecordArrivesOnce()
    {
        var client = new InMemoryClient(new InMemoryClientOptions());
        await client.CreateTopicAsync(new TopicSpec("t"), default);
        var load = new RateLoad(5_000, TimeSpan.FromSeconds(2), TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(100));
        var context = new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = load.MeasuredRecords, Payload = new byte[100], Load = load,
            // 2 500 records of 100 B: about half a second at 5 000 a second.
            Settings = new ClientSettings { BacklogBytes = 250_000 }, Interval = load.Interval,
        };
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));

        var m = await Task.Run(() => LoadScenario.For(ScenarioKind.Roundtrip).Run(context, timeout.Token));

        Assert.True(m.Succeeded, m.Error);
        Assert.Equal(m.Sent, m.Received);
        var b = m.Backlog!;
        Assert.Equal(2_500, b.Records);
        Assert.InRange(b.ReachedAtSeconds, 0.45, 1.5);
        Assert.True(b.ConsumersReadyAtSeconds >= b.ReachedAtSeconds);
        Assert.NotNull(b.CaughtUpAtSeconds);
        Assert.True(b.DrainRecordsPerSecond > 5_000, $"drained at {b.DrainRecordsPerSecond}/s");
        // Nothing was consumed before the consumers started: the lag grew to the backlog first (an interval's bounds are
        // the sampler's wake-ups, late by up to an interval on a loaded machine).
        Assert.All(m.Intervals!.Where(i => i.StartSeconds + (2 * i.LengthSeconds) <= b.ReachedAtSeconds), i => Assert.Equal(0, i.Consumed));
        Assert.Contains(m.Intervals!, i => i.Lag >= 2_000);
    }

    [Fact]
    public void From_Intervals_CatchUpIsTheFirstIntervalUnder100msOfLagAfterTheStart()
    {
        IntervalRecord At(int index, long consumed, long lag) => new()
        {
            Index = index, StartSeconds = index, LengthSeconds = 1, Warmup = false, Sent = 1_000, Acknowledged = 1_000, Consumed = consumed,
            MegabytesPerSecond = 0, InFlight = 0, Lag = lag,
        };
        var intervals = new[] { At(0, 0, 1_000), At(1, 0, 2_000), At(2, 2_500, 500), At(3, 1_450, 50), At(4, 1_000, 40) };

        var b = BacklogRecord.From(2_000, reachedAt: 2.0, readyAt: 2.2, intervals, recordsPerSecond: 1_000);

        Assert.Equal(4.0, b.CaughtUpAtSeconds);
        Assert.Equal(1.8, b.CatchUpSeconds!.Value, 3);
        Assert.Equal((2_500 + 1_450) / 1.8, b.DrainRecordsPerSecond!.Value, 3);
        Assert.Null(BacklogRecord.From(2_000, 2.0, 2.2, intervals[..3], 1_000).CaughtUpAtSeconds);
    }
}
