using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running.Faults;

/// <summary>
/// The faults of one measured run: the <see cref="FaultWatch"/> its scenario records into, the <see cref="FaultDriver"/>
/// that fires them beside it, and, once the run is over, the topic read back (what was acknowledged and proven lost, what
/// was duplicated, or - when the read could not get that far - what is not verified) and every fault's recovery figures.
/// </summary>
internal sealed class FaultRun : IDisposable
{
    /// <summary>How long after the run's end the cluster is still watched for the partition's next leader.</summary>
    private static readonly TimeSpan WatchAfterRun = TimeSpan.FromSeconds(2);

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
    internal static FaultRun? For(BenchmarkPlan plan, RunDescriptor run, ClusterConnection connection, IClock clock)
    {
        if (plan.Faults.Count == 0 || run.IsWarmup || connection.Faults is not { } injector || plan.LoadOf(run.Cell) is not { } load) return null;
        // The series may go on after the last record is due, while the backlog drains: up to the stall timeout and more.
        var length = load.Warmup + load.Duration + plan.StallTimeout + TimeSpan.FromSeconds(30);
        var watch = new FaultWatch(load.TotalRecords, plan.PartitionsOf(run.Cell), length, clock, load.RecordsPerSecond);
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
        (ReadOutcome, long, double?) readBack = (ReadOutcome.Complete, 0, null);
        if (Watch.Acknowledged.Keys.Distinct > 0)
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

    /// <summary>Reads the topic from its start with a group of its own until every acknowledged key has been read or every
    /// partition has been read past its last acknowledged offset (then the keys not read are proven lost). No idle time
    /// ends it: a read that makes no progress for the stall timeout (no record, no assignment) ends with the keys not read
    /// <em>not verified</em>, saying where it stopped - a slow cluster makes it slower, never wrong.</summary>
    private (ReadOutcome Read, long Duplicated, double? Seconds) ReadBack(IBenchClient client, string topic, ClientSettings settings, TimeSpan stallTimeout, CancellationToken token)
    {
        var acknowledged = Watch.Acknowledged;
        var read = new ConcurrentKeyVerifier(acknowledged.Keys.ExpectedCount);
        var positions = new ReadPositions(acknowledged.Partitions);
        var sink = new ReadBackSink(read, positions);
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        string? stopped = null;
        try
        {
            using var consumer = Scenarios.RecordIdInValue.Wrap(client.CreateConsumer(new ConsumerSpec(topic, ReadBackGroup(topic), settings, UsePrefetch: false)
            {
                Cancellation = token,
                StallTimeout = stallTimeout,
            }), settings);
            consumer.StartPolling(sink);
            try
            {
                bool finished = ProgressWait.Until(
                    () => sink.Error is not null || acknowledged.Keys.CountNotIn(read) == 0 || DeliveryProof.ReadToTheEnd(acknowledged, positions),
                    () => read.Distinct + read.Duplicates + positions.Total + (sink.Assigned ? 1 : 0), stallTimeout, token);
                stopped = sink.Error is { } error ? $"the read-back's consumer failed: {error}"
                    : finished ? null
                    : !sink.Assigned ? $"no partition was assigned to the read-back within {stallTimeout.TotalSeconds:0.#} s"
                    : $"the read-back read nothing new for {stallTimeout.TotalSeconds:0.#} s";
            }
            finally
            {
                consumer.StopPolling();
            }
        }
        catch (Exception ex) when (ex is not OperationCanceledException and not OutOfMemoryException)
        {
            stopped = $"the read-back failed: {ex.GetType().Name}: {ex.Message}";
        }
        double seconds = System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalSeconds;
        // A read that ended early but still went past every acknowledged offset proves as much as one that did not.
        return (DeliveryProof.Judge(acknowledged.Keys.CountNotIn(read), acknowledged, positions, seconds, stopped), read.Duplicates, seconds);
    }

    /// <summary>The read-back's consumer group, a group of its own.</summary>
    /// <param name="topic">The run's topic.</param>
    /// <returns>The group.</returns>
    internal static string ReadBackGroup(string topic) => topic + "__readback";

    private sealed class ReadBackSink(ConcurrentKeyVerifier read, ReadPositions positions) : IRecordSink
    {
        private volatile bool _assigned;
        private volatile string? _error;

        public bool Assigned => _assigned;

        public string? Error => _error;

        public void OnAssigned() => _assigned = true;

        public void OnRecord(long key, ReadOnlySpan<byte> value) => read.Observe(key, out _);

        public void OnRecordPosition(int partition, long offset) => positions.Read(partition, offset);

        public void OnError(string reason) => _error ??= reason;
    }
}
