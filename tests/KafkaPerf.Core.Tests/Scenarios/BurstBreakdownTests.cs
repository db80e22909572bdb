using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Scenarios;

public class BurstBreakdownTests
{
    [Fact]
    public void Stop_BurstInsideOneNumberedWindow_WaitsForTheWindowThatHoldsItAndTakesItsFigures()
    {
        // librdkafka's statistics come once a second: a burst of a few hundred milliseconds began and ended inside one
        // window, so nothing the client said so far is of it. The window closes after the timed section.
        var source = new Windows(numbered: true);
        using var breakdown = BurstBreakdown.For(Context())!;
        breakdown.Add(source);

        source.Close(queueMs: 7, requestMs: 3); // a window that closed before the burst's first record: not its figures
        breakdown.Start();
        using var later = new Timer(_ => source.Close(queueMs: 2, requestMs: 5), null, TimeSpan.FromMilliseconds(300), Timeout.InfiniteTimeSpan);
        var watch = Stopwatch.StartNew();
        breakdown.Stop();

        Assert.InRange(watch.Elapsed, TimeSpan.FromMilliseconds(250), BurstBreakdown.WindowWait);
        Assert.Equal(2, breakdown.Result!.QueueMs);
        Assert.Equal(5, breakdown.Result.RequestMs);
    }

    [Fact]
    public void Stop_ClientThatDoesNotNumberItsWindows_DoesNotWait()
    {
        var source = new Windows(numbered: false);
        using var breakdown = BurstBreakdown.For(Context())!;
        breakdown.Add(source);

        breakdown.Start();
        var watch = Stopwatch.StartNew();
        breakdown.Stop();

        Assert.True(watch.Elapsed < TimeSpan.FromMilliseconds(200), $"waited {watch.Elapsed.TotalMilliseconds:0} ms");
        Assert.Null(breakdown.Result!.QueueMs);
    }

    [Fact]
    public void Stop_NoWindowEverCloses_GivesUpAfterTheWaitWithoutAFigure()
    {
        var source = new Windows(numbered: true);
        using var breakdown = BurstBreakdown.For(Context())!;
        breakdown.Add(source);

        breakdown.Start();
        var watch = Stopwatch.StartNew();
        breakdown.Stop();

        Assert.InRange(watch.Elapsed, BurstBreakdown.WindowWait, BurstBreakdown.WindowWait + TimeSpan.FromSeconds(2));
        Assert.Null(breakdown.Result!.QueueMs);
    }

    private static ScenarioContext Context() => new()
    {
        Client = new InMemoryClient(new InMemoryClientOptions()), Topic = "t", MessageCount = 1, Payload = new byte[1],
        Settings = ClientSettings.ClientDefaults, Breakdown = true,
    };

    /// <summary>A client's statistics as librdkafka gives them: the latest closed window's figures, numbered or not.</summary>
    private sealed class Windows(bool numbered) : IClientBreakdown
    {
        private readonly Lock _lock = new();
        private ClientBreakdown _latest = new(null, null, null, null, null) { NumbersWindows = numbered };

        public void Close(double queueMs, double requestMs)
        {
            lock (_lock) _latest = new ClientBreakdown(queueMs, requestMs, null, null, null) { NumbersWindows = numbered, Window = numbered ? _latest.Window + 1 : 0 };
        }

        public ClientBreakdown ReadBreakdown()
        {
            lock (_lock) return _latest;
        }
    }
}
