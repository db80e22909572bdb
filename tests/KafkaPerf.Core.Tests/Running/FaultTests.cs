using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Core.Tests.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Running;

/// <summary>What the runner does when what is underneath fails: every wait bounded, the cause named, nothing finished
/// lost. The broker here is a test double; the CLI's process tests do the same to a real one.</summary>
public class FaultTests
{
    private static BenchmarkPlan Plan(int repeat = 3, double stallSeconds = 0.3) =>
        new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10)
            .Repeat(repeat).Warmup(false).StallTimeout(TimeSpan.FromSeconds(stallSeconds)).Build();

    [Fact]
    public async Task ProducerGoesSilent_RunFailsAfterTheStallTimeoutSayingWhatStalled()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { SilentFromProducer = 2 };
        var watch = Stopwatch.StartNew();

        var result = await new BenchmarkRunner(new ClientRegistry([a]), ClusterConnection.None).RunAsync(Plan(repeat: 2), cancellationToken: TestRunContext.Current);

        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"took {watch.Elapsed}");
        Assert.True(result.Runs[0].Succeeded, result.Runs[0].Error);
        Assert.Equal("stalled while flushing: 0 of 100 records acknowledged, nothing new for 0.3 s (--stall-timeout)", result.Runs[1].Error);
        Assert.Null(result.AbortReason);
        Assert.Equal(a.Created.Order(), a.Deleted.Order());
    }

    [Fact]
    public async Task BrokerExitsDuringARun_ThatRunFailsAtOnceNamingTheExitAndNoLaterRunIsAttempted()
    {
        var exited = new TaskCompletionSource<BrokerExit>(TaskCreationOptions.RunContinuationsAsynchronously);
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" })
        {
            SilentFromProducer = 2,
            OnSilence = () => exited.TrySetResult(new BrokerExit("the embedded broker exited (killed by SIGKILL)", "/logs/broker.log")),
        };
        var connection = ClusterConnection.None with { BrokerExited = exited.Task };
        var sink = new RecordingSink();
        var watch = Stopwatch.StartNew();

        var result = await new BenchmarkRunner(new ClientRegistry([a]), connection) { Checkpoints = sink }
            .RunAsync(Plan(stallSeconds: 60), cancellationToken: TestRunContext.Current);

        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"took {watch.Elapsed}: the stall timeout is 60 s");
        const string Expected = "the embedded broker exited (killed by SIGKILL) during run 2; its log: /logs/broker.log";
        Assert.Equal(Expected, result.AbortReason);
        Assert.False(result.Cancelled);
        Assert.Equal(2, result.Runs.Count);
        Assert.True(result.Runs[0].Succeeded);
        Assert.Equal(Expected, result.Runs[1].Error);
        // Nobody to ask: the second run's topic is not deleted (nor the third's, created ahead with the cell's), and no third
        // run was started.
        Assert.Equal(3, a.Created.Count);
        Assert.Single(a.Deleted);
        Assert.Equal([1, 2], sink.Started);
        Assert.Equal([1, 2], sink.Completed.Select(c => c.RunsSoFar));
        Assert.Equal([true, false], sink.Completed.Select(c => c.InProgress));
    }

    [Fact]
    public async Task ClusterStopsAnswering_PlanStopsAfterTheStallTimeoutAndListsTheTopicLeft()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { SilentFromProducer = 2 };
        int asked = 0;
        var connection = new ClusterConnection("cluster:9092")
        {
            CheckReachable = (_, _) =>
            {
                Interlocked.Increment(ref asked);
                return Task.FromResult<string?>("Local: Broker transport failure");
            },
        };
        var watch = Stopwatch.StartNew();

        var result = await new BenchmarkRunner(new ClientRegistry([a]), connection).RunAsync(Plan(), cancellationToken: TestRunContext.Current);

        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"took {watch.Elapsed}");
        Assert.Equal("the Kafka cluster at cluster:9092 did not answer for 0.3 s (--stall-timeout) after run 2 failed (Local: Broker transport failure)", result.AbortReason);
        Assert.Equal(2, result.Runs.Count);
        Assert.StartsWith("stalled while flushing", result.Runs[1].Error, StringComparison.Ordinal);
        Assert.True(asked >= 1);
        Assert.Single(a.Deleted);
        // The failed run's topic, and the third run's, created ahead with the cell's and never run.
        var third = a.Created.Last();
        Assert.Contains(result.Warnings, w => w.StartsWith("2 topic(s) could not be deleted while the Kafka cluster did not answer: ", StringComparison.Ordinal)
            && w.Contains(result.Runs[1].Topic, StringComparison.Ordinal) && w.Contains(third, StringComparison.Ordinal));
    }

    [Fact]
    public async Task ClusterComesBackInTime_PlanGoesOnWithTheFailedRunListedAndItsTopicDeleted()
    {
        var a = new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { SilentFromProducer = 2 };
        int asked = 0;
        // Down for the first question, up from the second (500 ms later).
        var connection = new ClusterConnection("cluster:9092")
        {
            CheckReachable = (_, _) => Task.FromResult<string?>(Interlocked.Increment(ref asked) == 1 ? "Local: Broker transport failure" : null),
        };
        var progress = new WarningLog();

        var result = await new BenchmarkRunner(new ClientRegistry([a]), connection).RunAsync(Plan(repeat: 3, stallSeconds: 2), progress, TestRunContext.Current);

        Assert.Null(result.AbortReason);
        Assert.Equal(3, result.Runs.Count);
        // Producers 2 and 3 are silent: runs 2 and 3 fail, run 1 succeeds.
        Assert.True(result.Runs[0].Succeeded);
        Assert.Contains(progress.Lines, l => l.Contains("does not answer (Local: Broker transport failure): waiting up to 2 s for it", StringComparison.Ordinal));
        Assert.Contains(progress.Lines, l => l.Contains("answers again", StringComparison.Ordinal) && l.Contains("run 2 is listed as failed", StringComparison.Ordinal));
        Assert.Equal(a.Created.Order(), a.Deleted.Order());
    }

    [Fact]
    public async Task CancelledDuringASilentFlush_EndsWithinTwoSecondsWithTheRunMarkedCancelled()
    {
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(TestRunContext.Current);
        var silent = new TestClientFactory(new InMemoryClientOptions { Name = "a" })
        {
            SilentFromProducer = 2,
            OnSilence = () => cts.CancelAfter(TimeSpan.FromMilliseconds(200)),
        };
        var watch = Stopwatch.StartNew();

        var result = await new BenchmarkRunner(new ClientRegistry([silent]), ClusterConnection.None).RunAsync(Plan(stallSeconds: 60), cancellationToken: cts.Token);

        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}: the stall timeout is 60 s");
        Assert.True(result.Cancelled);
        Assert.Equal(BenchmarkRunner.CancelledRunError, result.Runs[^1].Error);
        Assert.Equal(silent.Created.Order(), silent.Deleted.Order());
    }

    [Fact]
    public void StallWatch_ProgressKeepsIt_SilenceFiresItOnce()
    {
        long progress = 0;
        using var watch = new StallWatch(TimeSpan.FromMilliseconds(300), TestRunContext.Current);
        watch.Watch("flushing", () => Volatile.Read(ref progress));
        for (int i = 0; i < 10; i++)
        {
            Thread.Sleep(100);
            Interlocked.Increment(ref progress);
        }
        Assert.False(watch.Token.IsCancellationRequested, "progress every 100 ms must keep a 300 ms watch quiet");

        Assert.True(watch.Token.WaitHandle.WaitOne(TimeSpan.FromSeconds(5)));
        Assert.Equal("flushing", watch.Stalled);
        Assert.Equal("stalled while flushing: 3 of 9, nothing new for 0.3 s (--stall-timeout)", watch.Describe("3 of 9"));
    }

    private sealed class RecordingSink : IResultSink
    {
        public List<int> Started { get; } = [];

        public List<(int RunsSoFar, bool InProgress)> Completed { get; } = [];

        public void OnRunStarting(RunDescriptor run, Func<BenchmarkResult> soFar)
        {
            Started.Add(run.Sequence);
            Assert.True(soFar().InProgress);
        }

        public void OnRunCompleted(ResultIncrement increment) =>
            Completed.Add(((Completed.Count > 0 ? Completed[^1].RunsSoFar : 0) + increment.Added.Count, increment.Rest.InProgress));
    }

    private sealed class WarningLog : IBenchmarkProgress
    {
        public List<string> Lines { get; } = [];

        public void OnPlanStarted(BenchmarkPlan plan)
        {
        }

        public void OnRunStarting(RunDescriptor run)
        {
        }

        public void OnRunCompleted(RunDescriptor run, RunRecord record)
        {
        }

        public void OnWarning(string message)
        {
            lock (Lines) Lines.Add(message);
        }
    }
}
