using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Running;

/// <summary>
/// One run on a topic of its own: the topic created and the cluster ready for it (each bounded by the stall timeout), the
/// scenario on a thread of its own, the topic deleted (or, when the cluster may be what failed, left for the plan to delete
/// once it answers); one run on the workers; a client closed within a bound.
/// </summary>
internal sealed class RunExecutor
{
    /// <summary>How long a cancelled run's threads get to give their client calls back before the runner goes on without them.</summary>
    private static readonly TimeSpan AbandonAfter = TimeSpan.FromSeconds(1.5);

    /// <summary>How long deleting a topic may take once the plan was cancelled.</summary>
    private static readonly TimeSpan CancelledCleanup = TimeSpan.FromSeconds(1);

    /// <summary>How long closing a client may take at the end of the plan.</summary>
    private static readonly TimeSpan DisposeTimeout = TimeSpan.FromSeconds(5);

    /// <summary>How long a failed deletion waits to see whether the plan's own broker is ending.</summary>
    private static readonly TimeSpan BrokerExitGrace = TimeSpan.FromSeconds(2);

    private readonly ClusterConnection _connection;
    private readonly IClock _clock;
    private readonly Func<string, bool> _usesCluster;

    // The networks whose measured round trip the result's warnings already say.
    private readonly HashSet<string> _networksSaid = new(StringComparer.Ordinal);

    // The last run's topic, being deleted while the next run gets ready (its topic, its cluster's readiness, the
    // bookkeeping between runs), and what the deletion said: the next run's scenario starts only once it is gone.
    private (Task Deletion, List<string> Said)? _deleting;

    /// <summary>Samples the timed sections of the measured runs of clients in this process (<c>--profile</c>), or none.</summary>
    internal IRunProfiler? Profiler { get; set; }

    /// <param name="connection">Where clients connect.</param>
    /// <param name="clock">The clock the scenarios time with.</param>
    /// <param name="usesCluster">Whether a client (by name) uses the Kafka cluster: only its runs wait for the cluster to
    /// be ready (the in-memory client's topics are its own).</param>
    internal RunExecutor(ClusterConnection connection, IClock clock, Func<string, bool> usesCluster)
    {
        _connection = connection;
        _clock = clock;
        _usesCluster = usesCluster;
    }

    /// <summary>One run: its topic created and the cluster ready for it, unless <paramref name="prepared"/> says how that
    /// went already (<see cref="TopicsAhead"/>), the scenario, the topic deleted. A consume of a cell whose
    /// <paramref name="cellTopics"/> keep a fill per client reads the topic an earlier run of its client filled, or fills
    /// its own and keeps it for the next.</summary>
    internal async ValueTask<RunRecord> RunOneAsync(
        BenchmarkPlan plan, RunDescriptor run, IBenchClient client, byte[] payload, List<string> warnings,
        IBenchmarkProgress progress, BrokerWatch broker, List<(IBenchClient Client, string Topic)> undeleted,
        Func<CancellationToken, Task>? beforeStart, CancellationToken runToken, CancellationToken cancellationToken, TopicOutcome? prepared = null,
        TopicsAhead? cellTopics = null)
    {
        var cell = run.Cell;
        RunRecord? measurement = null;
        bool ownsTopic = true;
        bool faulted = false;
        var fill = cellTopics?.FillFor(run, client);
        // Its group stays its own, named after its own topic, whichever topic it reads.
        string group = ScenarioContext.GroupOf(run.Topic);
        bool readsFill = fill?.Acknowledged is not null;
        if (readsFill) run = run with { Topic = fill!.Topic };
        try
        {
            var topic = readsFill ? new TopicOutcome(Owned: true, Error: null) : prepared ?? await CreateTopicAsync(plan, run, client, runToken);
            // Not created here, so not used and not deleted here either: it may be someone else's topic.
            ownsTopic = topic.Owned;
            if (topic.Error is { } notCreated)
            {
                measurement = RunRecord.Failed(notCreated);
                return run.Record(measurement);
            }
            using var faults = Faults.FaultRun.For(plan, run, _connection, _clock);
            faulted = faults is not null;
            // Before any client touches the topic, and outside every timed section: the controller has it, but a broker
            // that has not learned it yet fails a consumer bootstrapped there ("Subscribed topic not available"). A topic
            // created ahead was asked about with its batch.
            if (prepared is null && !readsFill && await ReadyAsync(plan, run, readsBack: faulted, runToken) is { } notReady)
            {
                measurement = RunRecord.Failed(notReady);
                return run.Record(measurement);
            }
            try
            {
                if (beforeStart is not null) await beforeStart(runToken);
                var network = await ShapeAsync(cell, warnings, runToken);
                var context = new ScenarioContext
                {
                    Client = client,
                    Topic = run.Topic,
                    GroupId = group,
                    Fill = fill,
                    Partitions = plan.PartitionsOf(cell),
                    MessageCount = cell.MessageCount,
                    Payload = payload,
                    Settings = plan.SettingsFor(cell, run.Client),
                    UsePrefetch = plan.UsePrefetch,
                    CheckPayload = plan.CheckPayload,
                    StallTimeout = plan.StallTimeout,
                    Broker = _connection.BrokerProbe,
                    Network = cell.Settings.Network is null ? null : _connection.Network,
                    Clock = _clock,
                    Load = plan.LoadOf(cell),
                    Producers = cell.Settings.Producers ?? 1,
                    Consumers = cell.Settings.Consumers ?? 1,
                    Interval = plan.Interval,
                    Breakdown = plan.Breakdown,
                    BrokerBreakdown = plan.Breakdown ? _connection.BrokerBreakdown : null,
                    Faults = faults?.Watch,
                    // Like faults, membership events fire in measured runs only: a warm-up warms the client up.
                    GroupEvents = run.IsWarmup ? [] : [.. plan.GroupEvents.Select(GroupEventSpec.Parse).OrderBy(e => e.At)],
                    GroupCoordinator = _connection.GroupCoordinator,
                    Transactions = plan.SettingsFor(cell, run.Client).TransactionRecords is null ? null : new TransactionRecorder(),
                    // Warm-ups are not profiled; a reference tool runs in a process of its own, which this profiler does not see.
                    Profiler = Profiler is { } profiler && run.Repetition > 0 && client is not IReferenceClient ? profiler.Section(run) : null,
                };
                // No deletion of the last run's topic overlaps this run's scenario.
                await SettleAsync(warnings, progress);
                // Garbage from the previous run is collected now, not inside the next timed section.
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                faults?.Start(runToken);
                var scenario = Task.Factory.StartNew(
                    () => ScenarioOf(cell.Scenario, context).Run(context, runToken),
                    runToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);
                measurement = await AwaitRunAsync(scenario, runToken);
                if (context.Transactions?.Snapshot() is { } transactions) measurement = measurement with { Transactions = transactions };
                if (network is not null) measurement = network.On(measurement);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                measurement = RunRecord.Failed($"{ExceptionNames.TypeName(ex)}: {ex.Message}");
            }
            catch (OperationCanceledException)
            {
                faults?.Abandon();
                throw;
            }
            if (faults is not null) return await faults.FinishAsync(run.Record(measurement), client, plan.SettingsFor(cell, run.Client), plan.StallTimeout, runToken);
            return run.Record(measurement);
        }
        finally
        {
            // A fill read or made by a run that succeeded stays for the client's next run; the cell's end deletes it.
            bool keepsFill = fill?.Acknowledged is not null && measurement is { Succeeded: true } && !cancellationToken.IsCancellationRequested;
            if (fill is not null && !keepsFill) cellTopics!.Drop(run.Client);
            if (ownsTopic && !plan.KeepTopics && !keepsFill)
            {
                if (broker.Exit is not null)
                {
                    // Nobody to ask: the topic went with the broker's data.
                }
                else if (measurement is { Succeeded: false } && _connection.CheckReachable is not null)
                {
                    // The broker may be what failed: the plan first waits for it to answer, then deletes the topic.
                    undeleted.Add((client, run.Topic));
                }
                else if (faulted && !runToken.IsCancellationRequested)
                {
                    // A node may still be down or paused, and a client may still route its admin requests to it (librdkafka
                    // sends them to the controller it last saw): the topic is deleted once the cluster is healed (a
                    // cancelled plan deletes it at once, briefly).
                    undeleted.Add((client, run.Topic));
                }
                else if (measurement is { Succeeded: true } && !cancellationToken.IsCancellationRequested)
                {
                    // Deleted while the next run gets ready, and done before its scenario starts (SettleAsync); what the
                    // deletion says is said then.
                    await SettleAsync(warnings, progress);
                    var said = new List<string>();
                    _deleting = (DeleteTopicAsync(client, run.Topic, plan.StallTimeout, said, NullProgress.Instance, cancellationToken).AsTask(), said);
                }
                else
                {
                    await DeleteTopicAsync(client, run.Topic, plan.StallTimeout, warnings, progress, cancellationToken);
                }
            }
        }
    }

    /// <summary>What the runs of a network went through, for the result's warnings: the asked round trip beside the
    /// measured one.</summary>
    internal static string NetworkLine(NetworkRecord network)
    {
        static string Ms(double micros) => (micros / 1000).ToString("0.00", System.Globalization.CultureInfo.InvariantCulture) + " ms";
        var line = $"Runs of network={network.Asked} went through the shaping proxies ({network.Via}): the client link's round trip, measured before the first of them, "
            + $"p50 {Ms(network.ClientLink?.P50Micros ?? double.NaN)}, p99 {Ms(network.ClientLink?.P99Micros ?? double.NaN)} (asked {Ms(network.AskedClientRttMicros)})";
        if (network.BrokerLink is { } broker)
            line += $"; between brokers p50 {Ms(broker.P50Micros)}, p99 {Ms(broker.P99Micros)} (asked {Ms(network.AskedBrokerRttMicros)})";
        if (network.ClientRequest is { } request)
            line += $"; a request to node 1 through it (the broker's answer included) p50 {Ms(request.P50Micros)}, p99 {Ms(request.P99Micros)}";
        return line + ".";
    }

    /// <summary>Waits until the last run's topic is deleted (briefly once the plan is cancelled), and says what its deletion
    /// said; nothing when none is being deleted. Before a scenario starts, and before the clients close.</summary>
    internal async ValueTask SettleAsync(List<string> warnings, IBenchmarkProgress progress)
    {
        if (_deleting is not { } deleting) return;
        _deleting = null;
        await deleting.Deletion;
        RunWarnings.Warn(warnings, progress, deleting.Said);
    }

    /// <summary>Creates a run's topic, bounded by the stall timeout (a cluster that does not answer fails the run, not the
    /// plan).</summary>
    /// <returns>Whether this run owns the topic, and the run's error when it could not be created.</returns>
    /// <exception cref="OperationCanceledException">The run was cancelled.</exception>
    internal async ValueTask<TopicOutcome> CreateTopicAsync(BenchmarkPlan plan, RunDescriptor run, IBenchClient client, CancellationToken runToken)
    {
        try
        {
            using var createTimeout = CancellationTokenSource.CreateLinkedTokenSource(runToken);
            createTimeout.CancelAfter(plan.StallTimeout);
            try
            {
                await client.CreateTopicAsync(new TopicSpec(run.Topic, plan.PartitionsOf(run.Cell),
                    (short)plan.ReplicationFactorFor(_connection.Brokers), plan.MinInSyncReplicas), createTimeout.Token);
            }
            catch (OperationCanceledException ex) when (!runToken.IsCancellationRequested)
            {
                throw new TimeoutException($"no answer within {plan.StallTimeout.TotalSeconds:0.#} s (--stall-timeout)", ex);
            }
            return new TopicOutcome(Owned: true, Error: null);
        }
        catch (TopicExistsException ex)
        {
            return new TopicOutcome(Owned: false, ex.Message);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return new TopicOutcome(Owned: true, $"creating topic '{run.Topic}' failed: {ExceptionNames.TypeName(ex)}: {ex.Message}");
        }
    }

    /// <summary>Waits until every broker knows the run's topic and its groups' coordinator answers, bounded by the stall
    /// timeout; <see langword="null"/> when ready (or nothing to wait for), otherwise the run's error.</summary>
    /// <param name="plan">The plan (its stall timeout).</param>
    /// <param name="run">The run.</param>
    /// <param name="readsBack">Whether a read-back follows the run (a run with faults), whose group is asked about too.</param>
    /// <param name="runToken">Ends the wait with the run.</param>
    /// <param name="readers">The groups of the client's next runs, which read this run's topic (<see cref="TopicsAhead.FillFor"/>).</param>
    internal async ValueTask<string?> ReadyAsync(BenchmarkPlan plan, RunDescriptor run, bool readsBack, CancellationToken runToken,
        IReadOnlyList<string>? readers = null)
    {
        if (_connection.Readiness is not { } readiness || !_usesCluster(run.Client)) return null;
        return await Faults.RunReadiness.AskAsync(readiness, run.Topic, readsBack, plan.StallTimeout, runToken, readers) is { } why
            ? $"the cluster was not ready for the run (--stall-timeout): {why}"
            : null;
    }

    /// <summary>The scenario that runs a run: the reference tool's own for a reference, the load scenario for a rate or
    /// several producers or consumers (<see cref="LoadScenario.Applies(ScenarioContext)"/>), else the burst of <paramref name="kind"/>.</summary>
    private static IScenario ScenarioOf(ScenarioKind kind, ScenarioContext context) =>
        context.Client is IReferenceClient reference ? new ReferenceScenario(kind, reference)
            : LoadScenario.Applies(context) ? LoadScenario.For(kind)
            : Scenario.For(kind);

    /// <summary>Waits for a scenario; once the run is cancelled (Ctrl+C, the broker gone), waits a moment for its threads to
    /// give their client calls back, then no longer: the plan's end must not hang on a call that never returns.</summary>
    private static async Task<RunRecord> AwaitRunAsync(Task<RunRecord> scenario, CancellationToken runToken)
    {
        var cancelled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using (runToken.Register(static state => ((TaskCompletionSource)state!).TrySetResult(), cancelled))
        {
            if (await Task.WhenAny(scenario, cancelled.Task) != scenario
                && await Task.WhenAny(scenario, Task.Delay(AbandonAfter, CancellationToken.None)) != scenario)
            {
                // Left to end by itself (its client calls are bounded); its outcome no longer matters.
                _ = scenario.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
                throw new OperationCanceledException(runToken);
            }
        }
        return await scenario;
    }

    /// <summary>Shapes the proxies of this process's broker as the cell asks, the first time measuring its links' real
    /// round trip, before anything is timed; the report says it once per spec, beside the tables. <see langword="null"/>
    /// when the cell asks for no network or there are no proxies.</summary>
    private async ValueTask<ShapedRun?> ShapeAsync(PlanCell cell, List<string> warnings, CancellationToken runToken)
    {
        if (cell.Settings.Network is not { } spec || _connection.Network is not { } shaper) return null;
        var network = await shaper.ShapeAsync(spec, runToken);
        // Deletions of earlier runs' topics add warnings from other threads: the list is locked as theirs is.
        lock (warnings)
        {
            if (_networksSaid.Add(network.Asked)) warnings.Add(NetworkLine(network));
        }
        return new ShapedRun(network, shaper, shaper.CpuSeconds, shaper.ForwardedBytes);
    }

    /// <summary>A run's network: what was asked and measured, and the proxies' counters when it began.</summary>
    private sealed record ShapedRun(NetworkRecord Record, INetworkShaper Shaper, double? CpuBefore, long BytesBefore)
    {
        /// <summary>The run's measurement with its network, and what the proxies spent and forwarded during it.</summary>
        internal RunRecord On(RunRecord measurement) => measurement with
        {
            Network = Record with { ProxyCpuSeconds = Shaper.CpuSeconds - CpuBefore, ProxyBytes = Shaper.ForwardedBytes - BytesBefore },
        };
    }

    /// <summary>One run on the workers. The proxies of the broker this process started are shaped as for a run of its own:
    /// the workers' clients reach the broker through them.</summary>
    internal async ValueTask<RunRecord> RunRemoteAsync(
        IRemoteRuns remote, RunDescriptor run, BenchmarkPlan plan, List<string> warnings, CancellationToken runToken)
    {
        RunRecord measurement;
        try
        {
            var network = await ShapeAsync(run.Cell, warnings, runToken);
            measurement = await remote.RunAsync(plan, run, runToken);
            if (network is not null) measurement = network.On(measurement);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            measurement = RunRecord.Failed($"{ExceptionNames.TypeName(ex)}: {ex.Message}");
        }
        return run.Record(measurement);
    }

    internal async ValueTask DeleteTopicAsync(IBenchClient client, string topic, TimeSpan stallTimeout, List<string> warnings,
        IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        // Runs even when the plan was cancelled (no topic is left behind unless asked), but then briefly: the process has
        // seconds to end.
        if (_connection.Ephemeral && _connection.BrokerExited is { IsCompleted: true }) return;
        using var timeout = new CancellationTokenSource(cancellationToken.IsCancellationRequested ? CancelledCleanup : stallTimeout);
        using var shorten = cancellationToken.Register(static state => ((CancellationTokenSource)state!).CancelAfter(CancelledCleanup), timeout);
        try
        {
            var deletion = client.DeleteTopicAsync(topic, timeout.Token).AsTask();
            // The plan's own broker ending takes its topics with it: nothing to wait for (a cell's kept fill is deleted
            // when the cell ends, maybe just after a kill).
            if (_connection.Ephemeral && _connection.BrokerExited is { } exited && await Task.WhenAny(deletion, exited) != deletion)
            {
                _ = deletion.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
                return;
            }
            await deletion;
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            if (await BrokerWentWithItsTopicsAsync()) return;
            RunWarnings.Warn(warnings, progress, [$"Topic '{topic}' could not be deleted: no answer within {(cancellationToken.IsCancellationRequested ? CancelledCleanup : stallTimeout).TotalSeconds:0.#} s.{(_connection.Ephemeral ? string.Empty : " Delete it by hand.")}"]);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            if (await BrokerWentWithItsTopicsAsync()) return;
            RunWarnings.Warn(warnings, progress, [$"Topic '{topic}' could not be deleted: {ex.Message}"]);
        }
    }

    /// <summary>Whether the broker this plan started has ended (or ends within a moment) and its topics went with it: a
    /// signal to the whole process group (timeout(1), a service manager) stops it while a deletion is under way, and
    /// there is then nothing left to delete or to tell.</summary>
    private async ValueTask<bool> BrokerWentWithItsTopicsAsync()
    {
        if (!_connection.Ephemeral || _connection.BrokerExited is not { } exited) return false;
        await Task.WhenAny(exited, Task.Delay(BrokerExitGrace));
        return exited.IsCompleted;
    }

    /// <summary>Disposes a client, waiting at most a few seconds: a client whose broker is gone may not close cleanly.</summary>
    internal static async Task DisposeBoundedAsync(IBenchClient client, List<string> warnings, IBenchmarkProgress progress)
    {
        var dispose = Task.Run(async () => await client.DisposeAsync());
        if (await Task.WhenAny(dispose, Task.Delay(DisposeTimeout)) != dispose)
        {
            _ = dispose.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            RunWarnings.Warn(warnings, progress, [$"Client '{client.Name}' did not close within {DisposeTimeout.TotalSeconds:0} s; it was left to the end of the process."]);
            return;
        }
        try
        {
            await dispose;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            RunWarnings.Warn(warnings, progress, [$"Client '{client.Name}' did not close cleanly: {ex.Message}"]);
        }
    }

}
