using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running.Faults;

/// <summary>
/// The faults of one measured run: the <see cref="FaultWatch"/> its scenario records into, the <see cref="FaultDriver"/>
/// that fires them beside it, and, once the run is over, the topic read back (what was acknowledged and lost, what was
/// duplicated) and every fault's recovery figures.
/// </summary>
internal sealed class FaultRun : IDisposable
{
    /// <summary>How long after the run's end the cluster is still watched for the partition's next leader.</summary>
    private static readonly TimeSpan WatchAfterRun = TimeSpan.FromSeconds(2);

    /// <summary>How long the read-back waits once nothing new arrives.</summary>
    private static readonly TimeSpan ReadBackIdle = TimeSpan.FromSeconds(3);

    private readonly IReadOnlyList<FaultSpec> _faults;
    private readonly FaultDriver _driver;
    private readonly CancellationTokenSource _stopWatching = new();
    private readonly CancellationTokenSource _scenarioOver = new();
    private readonly LatencyGoal? _goal;
    private Task<IReadOnlyList<FaultOutcome>>? _outcomes;

    private FaultRun(IReadOnlyList<FaultSpec> faults, FaultWatch watch, FaultDriver driver, LatencyGoal? goal)
    {
        _faults = faults;
        Watch = watch;
        _driver = driver;
        _goal = goal;
    }

    /// <summary>What the scenario records into.</summary>
    public FaultWatch Watch { get; }

    /// <summary>The faults of a measured run at a rate, ready to start; <see langword="null"/> for a run without (a
    /// warm-up run has none: it warms the client up, as in any plan).</summary>
    internal static FaultRun? For(BenchmarkPlan plan, RunDescriptor run, ClientConnection connection, IClock clock)
    {
        if (plan.Faults.Count == 0 || run.IsWarmup || connection.Faults is not { } injector || plan.LoadOf(run.Cell) is not { } load) return null;
        // The series may go on after the last record is due, while the backlog drains: up to the stall timeout and more.
        var length = load.Warmup + load.Duration + plan.StallTimeout + TimeSpan.FromSeconds(30);
        var watch = new FaultWatch(load.TotalRecords, length, clock, load.RecordsPerSecond);
        var goal = plan.RecoveryGoal is { } g ? LatencyGoal.ParseList(g)[0] : null;
        return new FaultRun([.. plan.Faults.Select(FaultSpec.Parse)], watch, new FaultDriver(injector, watch, run.Topic, plan.StallTimeout), goal);
    }

    /// <summary>Starts the driver; the faults wait for the scenario's start.</summary>
    internal void Start(CancellationToken runToken) => _outcomes = _driver.RunAsync(_faults, _scenarioOver.Token, _stopWatching.Token, runToken);

    /// <summary>Once the scenario is over: waits for the faults to finish, reads the topic back, and returns the run with
    /// its fault records.</summary>
    internal async Task<RunRecord> FinishAsync(RunRecord recorded, IBenchClient client, ClientSettings settings, TimeSpan stallTimeout, CancellationToken runToken)
    {
        if (_outcomes is null) return recorded;
        _scenarioOver.Cancel();
        _stopWatching.CancelAfter(WatchAfterRun);
        var outcomes = await _outcomes;
        (long, long)? readBack = null;
        if (Watch.Acknowledged.Distinct > 0)
        {
            readBack = await Task.Factory.StartNew(() => ReadBack(client, recorded.Topic, settings, stallTimeout, runToken),
                runToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        }
        return recorded with { Faults = FaultRecovery.Records(outcomes, recorded, Watch, _goal, readBack) };
    }

    /// <summary>Lets go of the token that ends the watch for a new leader, unless the driver still runs (abandoned).</summary>
    public void Dispose()
    {
        if (_outcomes is not null && !_outcomes.IsCompleted) return;
        _stopWatching.Dispose();
        _scenarioOver.Dispose();
    }

    /// <summary>A run that ended in an exception: the driver is stopped and its end left to itself.</summary>
    internal void Abandon()
    {
        _scenarioOver.Cancel();
        _stopWatching.Cancel();
        _outcomes?.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
    }

    /// <summary>Reads the topic from its start with a group of its own until every acknowledged key has been read, or
    /// nothing new arrives for <see cref="ReadBackIdle"/>, within the stall timeout; <see langword="null"/> when it could
    /// not be read, or was still reading when the time was up.</summary>
    private (long Lost, long Duplicated)? ReadBack(IBenchClient client, string topic, ClientSettings settings, TimeSpan stallTimeout, CancellationToken token)
    {
        var read = new ConcurrentKeyVerifier(Watch.Acknowledged.ExpectedCount);
        var sink = new ReadBackSink(read);
        try
        {
            using var consumer = Scenarios.RecordIdInValue.Wrap(client.CreateConsumer(new ConsumerSpec(topic, topic + "__readback", settings, UsePrefetch: false)
            {
                Cancellation = token,
                StallTimeout = stallTimeout,
            }), settings);
            consumer.StartPolling(sink);
            var deadline = DateTime.UtcNow + stallTimeout;
            long last = -1;
            var lastChange = DateTime.UtcNow;
            while (DateTime.UtcNow < deadline && sink.Error is null)
            {
                token.ThrowIfCancellationRequested();
                if (Watch.Acknowledged.CountNotIn(read) == 0) break;
                long now = read.Distinct + read.Duplicates;
                if (now != last)
                {
                    last = now;
                    lastChange = DateTime.UtcNow;
                }
                else if (sink.Assigned && DateTime.UtcNow - lastChange > ReadBackIdle) break;
                Thread.Sleep(20);
            }
            consumer.StopPolling();
            // Still reading when the time was up: what was not read yet is not known to be lost.
            bool cutShort = Watch.Acknowledged.CountNotIn(read) > 0 && DateTime.UtcNow >= deadline && DateTime.UtcNow - lastChange <= ReadBackIdle;
            if (sink.Error is not null || !sink.Assigned || cutShort) return null;
        }
        catch (Exception ex) when (ex is not OperationCanceledException and not OutOfMemoryException)
        {
            return null;
        }
        return (Watch.Acknowledged.CountNotIn(read), read.Duplicates);
    }

    private sealed class ReadBackSink(ConcurrentKeyVerifier read) : IRecordSink
    {
        private volatile bool _assigned;
        private volatile string? _error;

        public bool Assigned => _assigned;

        public string? Error => _error;

        public void OnAssigned() => _assigned = true;

        public void OnRecord(long key, ReadOnlySpan<byte> value) => read.Observe(key, out _);

        public void OnError(string reason) => _error ??= reason;
    }
}
