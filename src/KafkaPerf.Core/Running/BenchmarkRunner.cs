using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;
using KafkaPerf.Telemetry;

namespace KafkaPerf.Running;

/// <summary>
/// Runs a plan: creates each client once, then for every cell a warm-up per client (excluded) and the measured
/// repetitions in balanced or shuffled order, each on a topic of its own that is created before it (with the next runs'
/// topics, <see cref="TopicsAhead"/>) and deleted after it.
/// </summary>
/// <remarks>Cancellation stops between or inside runs; the result then holds every run done so far and is
/// marked <see cref="BenchmarkResult.Cancelled"/>.</remarks>
public sealed class BenchmarkRunner
{
    private readonly ClientRegistry _registry;
    private readonly ClusterConnection _connection;
    private readonly PlanChecks _checks;
    private readonly RunExecutor _runs;

    // A plan of this runner has run on the cluster (its warm-up or a run): the cluster has served load. find-rate's
    // probes after the first are plans of the same runner.
    private bool _servedLoad;

    /// <summary>Creates a runner.</summary>
    /// <param name="registry">The clients plans may name.</param>
    /// <param name="connection">Where clients connect.</param>
    /// <param name="clock">The clock; the stopwatch when omitted.</param>
    public BenchmarkRunner(ClientRegistry registry, ClusterConnection connection, IClock? clock = null)
    {
        ArgumentNullException.ThrowIfNull(registry);
        ArgumentNullException.ThrowIfNull(connection);
        _registry = registry;
        _connection = connection;
        _checks = new PlanChecks(registry, connection.Facts);
        _runs = new RunExecutor(connection, clock ?? StopwatchClock.Instance, UsesCluster);
    }

    /// <summary>Whether a client (by name) uses the Kafka cluster, so that the cluster must be ready for its runs.</summary>
    private bool UsesCluster(string client) => _registry.TryGet(client, out var factory) && factory.RequiresBroker;

    /// <summary>Checks that every client of the plan is registered and has what it needs, and that where the runs run
    /// (this process, or the workers of <see cref="Remote"/>) can run them.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>Findings; empty when the plan can run here.</returns>
    public IReadOnlyList<ValidationError> Validate(BenchmarkPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return _checks.All(plan, onWorkers: Remote is not null);
    }

    /// <summary>Samples the timed sections of the measured runs of clients in this process (<c>--profile</c>), started
    /// before the plan; <see langword="null"/> for none.</summary>
    public IRunProfiler? Profiler
    {
        get => _runs.Profiler;
        init => _runs.Profiler = value;
    }

    /// <summary>Receives what every run added to the result, before the next run starts (the CLI's checkpoint files);
    /// <see langword="null"/> for none.</summary>
    public IResultSink? Checkpoints { get; init; }

    /// <summary>Where the runs run when not in this process (workers); <see langword="null"/> to run them here.</summary>
    public IRemoteRuns? Remote { get; init; }

    /// <summary>Runs the plan.</summary>
    /// <param name="plan">A validated plan.</param>
    /// <param name="progress">Receives progress; nothing when omitted.</param>
    /// <param name="cancellationToken">Stops the plan; what ran so far is returned.</param>
    /// <returns>The result; <see cref="BenchmarkResult.AbortReason"/> says why it ended early when the broker went away.</returns>
    /// <exception cref="PlanValidationException">A client is unknown or lacks a broker.</exception>
    public async ValueTask<BenchmarkResult> RunAsync(
        BenchmarkPlan plan, IBenchmarkProgress? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var findings = Validate(plan);
        if (findings.Count > 0) throw new PlanValidationException(findings);
        progress ??= NullProgress.Instance;

        var started = DateTimeOffset.UtcNow;
        int totalRuns = plan.TotalRuns;
        var runs = new List<RunRecord>(totalRuns);
        var warnings = new List<string>();
        var clients = new Dictionary<string, IBenchClient>(StringComparer.OrdinalIgnoreCase);
        var infos = new Dictionary<string, ClientInfo>(StringComparer.OrdinalIgnoreCase);
        bool cancelled = false;
        string? abortReason = null;
        RunDescriptor? inProgress = null;
        // Topics of runs that failed while the cluster did not answer: deleted once it does.
        var undeleted = new List<(IBenchClient Client, string Topic)>();
        // The cell's topics created ahead of their runs, whose runs may not all come.
        TopicsAhead? ahead = null;
        var connection = _connection with { StallTimeout = plan.StallTimeout };
        using var broker = new BrokerWatch(_connection.BrokerExited);
        // A run's calls end when the plan is cancelled or the broker process is gone, whichever comes first.
        using var runTokens = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, broker.Token);
        using var planSpan = KafkaPerfTelemetry.StartPlan(plan);

        string? clusterWarmup = null;
        // Read once: nothing in it changes while the plan runs.
        var environment = EnvironmentInfo.Capture(_connection);
        BenchmarkResult Rest(bool running) =>
            ResultSnapshot.Rest(environment, plan, started, infos, warnings, cancelled, abortReason, running) with { ClusterWarmup = clusterWarmup };
        // The whole result sums up every run: asked for once at the end (and by a checkpoint before its first run), never per run.
        BenchmarkResult Whole(bool running) => ResultSummarizer.Complete(Rest(running), [.. runs]);

        try
        {
            // Clients start once, before anything is timed (a JVM or a connection costs seconds).
            foreach (var name in plan.Clients)
            {
                if (Remote is not null)
                {
                    // The workers create the clients; what they are is known once they said so.
                    infos[name] = new ClientInfo { Name = name, LibraryVersion = "(on the workers)", Capabilities = default, Origin = _registry.OriginOf(name) };
                    continue;
                }
                var client = _registry.Get(name).Create(connection.Endpoint);
                clients[name] = client;
                infos[name] = new ClientInfo
                {
                    Name = name, LibraryVersion = client.LibraryVersion, Capabilities = client.Capabilities,
                    Origin = _registry.OriginOf(name), Details = client.Details.Count > 0 ? client.Details : null,
                };
            }
            RunWarnings.Warn(warnings, progress, plan.Warnings.Concat(PlanChecks.PlanWarnings(plan, clients.Values)).Concat(_checks.SettingsWarnings(plan))
                .Concat(_checks.ColdClusterWarning(plan, Remote, _servedLoad)));
            progress.OnPlanStarted(plan);

            if (plan.Faults.Count > 0 && Remote is null)
                abortReason = await Faults.FaultHealing.CheckBeforeAsync(connection, plan, cancellationToken);
            int sequence = 0;
            var payloads = new Dictionary<int, byte[]>();
            // Read once, before anything is timed.
            ReadOnlyMemory<byte> fileBytes = plan.Payload == Payloads.PayloadKind.File ? await File.ReadAllBytesAsync(plan.PayloadFile!, cancellationToken) : default;
            byte[] PayloadOf(int size) => payloads.TryGetValue(size, out var made) ? made
                : payloads[size] = PayloadFactory.Create(plan.Payload, size, plan.Seed, fileBytes);
            _servedLoad = true;
            // Only the clients that use the cluster warm it up; a plan with none of them has nothing to warm up.
            var onTheCluster = clients.Where(c => _registry.TryGet(c.Key, out var factory) && factory.RequiresBroker)
                .ToDictionary(c => c.Key, c => c.Value, StringComparer.OrdinalIgnoreCase);
            if (plan.ClusterWarmup > TimeSpan.Zero && Remote is null && onTheCluster.Count == 0)
                RunWarnings.Warn(warnings, progress, ["The cluster warm-up was not run: no client of this plan uses a Kafka cluster."]);
            else if (plan.ClusterWarmup > TimeSpan.Zero && Remote is null && plan.Cells().FirstOrDefault() is { } first)
                clusterWarmup = await ClusterWarmup.WarmUpClusterAsync(_runs, plan, first, PayloadOf(first.PayloadBytes), onTheCluster, warnings, progress, broker,
                    undeleted, runTokens.Token, cancellationToken);
            foreach (var cell in plan.Cells())
            {
                if (abortReason is not null) break;
                using var cellSpan = KafkaPerfTelemetry.StartCell(cell);
                var payload = PayloadOf(cell.PayloadBytes);

                // References run only produce and consume, without warm-up: every run of theirs is a process of its own.
                var cellClients = plan.ClientsFor(cell);
                var order = new List<(string Client, int Repetition)>();
                order.AddRange(cellClients.Where(c => plan.HasWarmupRun(cell, c)).Select(c => (c, 0)));
                order.AddRange(plan.Order == RunOrderKind.Shuffled
                    ? RunOrder.Shuffled(cellClients, plan.Repeat, plan.Seed + sequence)
                    : RunOrder.Balanced(cellClients, plan.Repeat));
                int firstSequence = sequence + 1;
                var cellRuns = order.Select((o, i) => new RunDescriptor(firstSequence + i, totalRuns, cell, o.Client, o.Repetition,
                    TopicNaming.For(plan.TopicPrefix, o.Client, cell.MessageCount, cell.PayloadBytes, firstSequence + i))).ToList();
                // Without faults or workers, a run's topic is created ahead, together with those of the next runs.
                bool fillsOnce = TopicsAhead.FillsOnce(plan, cell);
                ahead = Remote is null && plan.Faults.Count == 0
                    ? new TopicsAhead(_runs, plan, cellRuns, name => fillsOnce && UsesCluster(name) && clients[name] is not IReferenceClient)
                    : null;

                foreach (var (name, repetition) in order)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    if (broker.Exit is { } exit)
                    {
                        abortReason = exit.Describe($"before run {sequence + 1}");
                        break;
                    }
                    sequence++;
                    var run = cellRuns[sequence - firstSequence];
                    progress.OnRunStarting(run);
                    Checkpoints?.OnRunStarting(run, () => Whole(running: true));
                    inProgress = run;
                    using var runSpan = KafkaPerfTelemetry.StartRun(run);
                    if (ahead is not null && ahead.NeedsTopic(run))
                        await ahead.CreateAsync([.. cellRuns.Skip(sequence - firstSequence).Select(r => (r, clients[r.Client]))], runTokens.Token);
                    var record = Remote is { } remote
                        ? await _runs.RunRemoteAsync(remote, run, plan, warnings, runTokens.Token)
                        : await _runs.RunOneAsync(plan, run, clients[name], payload, warnings, progress, broker, undeleted, null, runTokens.Token,
                            cancellationToken, ahead?.Take(run), ahead);
                    if (record.Faults is not null && abortReason is null && broker.Exit is null)
                    {
                        // No run starts on a damaged cluster: the node back, every replica in sync, leaders where they were.
                        (record, abortReason) = await Faults.FaultHealing.HealAfterAsync(connection, plan, record, UsesCluster(name), cancellationToken);
                        if (abortReason is null)
                        {
                            foreach (var (owner, leftover) in undeleted)
                                await _runs.DeleteTopicAsync(owner, leftover, plan.StallTimeout, warnings, progress, cancellationToken);
                            undeleted.Clear();
                        }
                    }
                    if (Remote?.Describe(name) is { } described && infos[name].LibraryVersion == "(on the workers)") infos[name] = described;
                    inProgress = null;
                    if (broker.Exit is { } during && !record.Succeeded)
                    {
                        // Whatever the client saw (a stall, a closed connection), the cause is known.
                        abortReason = during.Describe($"during run {run.Sequence}");
                        record = record with { Error = abortReason };
                    }
                    // After a failed run, a cluster that does not answer is waited for, up to the stall timeout, before
                    // the run's topic is deleted and the plan goes on.
                    if (!record.Succeeded && abortReason is null && undeleted.Count > 0 && connection.CheckReachable is { } check)
                    {
                        abortReason = await ClusterWait.AwaitClusterAsync(_connection, check, plan.StallTimeout, run.Sequence, warnings, progress, cancellationToken);
                        if (abortReason is null)
                        {
                            foreach (var (owner, leftover) in undeleted)
                                await _runs.DeleteTopicAsync(owner, leftover, plan.StallTimeout, warnings, progress, cancellationToken);
                            undeleted.Clear();
                        }
                    }
                    runs.Add(record);
                    if (record.ServiceTimeMissed > 0)
                    {
                        // Their response time was recorded; their service time could not be: the service percentiles of
                        // this run leave out its slowest records.
                        RunWarnings.Warn(warnings, progress, [string.Create(CultureInfo.InvariantCulture,
                            $"Run {run.Sequence} ({name}): the service time of {record.ServiceTimeMissed} records was not recorded (still in flight after {Scenarios.Load.SendTimeRing.MaxCapacity} newer timed records): its service percentiles leave out its slowest records; its response times include them.")]);
                    }
                    KafkaPerfTelemetry.RunCompleted(runSpan, record);
                    infos[name] = ResultSnapshot.WithConfig(infos[name], record, plan.SettingsVariants.Count > 1 ? cell.Variant : null);
                    // Saved before it is shown: a run on the screen is a run in the files.
                    Checkpoints?.OnRunCompleted(new ResultIncrement([record], Rest(running: abortReason is null)));
                    progress.OnRunCompleted(run, record);
                    if (abortReason is not null) break;
                }
                if (ahead is not null) await LeaveAheadAsync(ahead, broker, abortReason, undeleted, warnings, progress, cancellationToken);
                if (abortReason is not null) break;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested || broker.Exit is not null)
        {
            cancelled = cancellationToken.IsCancellationRequested;
            // The run that was cut short is in the results too (CSV included), marked, never counted as measured.
            if (inProgress is { } interrupted)
            {
                if (!cancelled) abortReason = broker.Exit!.Describe($"during run {interrupted.Sequence}");
                var record = Unfinished(interrupted, cancelled ? CancelledRunError : abortReason!);
                runs.Add(record);
                Checkpoints?.OnRunCompleted(new ResultIncrement([record], Rest(running: false)));
                progress.OnRunCompleted(interrupted, record);
            }
            else if (!cancelled)
            {
                abortReason = broker.Exit!.Describe("before the first run");
            }
        }
        finally
        {
            // The last run's topic, and - a plan cancelled or stopped within a cell - the topics created for its runs to come,
            // go before the clients.
            await _runs.SettleAsync(warnings, progress);
            if (ahead is not null) await LeaveAheadAsync(ahead, broker, abortReason, undeleted, warnings, progress, cancellationToken);
            foreach (var client in clients.Values)
                await RunExecutor.DisposeBoundedAsync(client, warnings, progress);
        }

        // Said once by whoever shows the result (the CLI's last line); kept in the result's warnings for the reports.
        if (abortReason is not null) lock (warnings) warnings.Add($"The plan stopped early: {abortReason}.");
        if (undeleted.Count > 0 && !_connection.Ephemeral)
            RunWarnings.Warn(warnings, progress, [$"{undeleted.Count} topic(s) could not be deleted while {_connection.BrokerName} did not answer: {string.Join(", ", undeleted.Select(u => u.Topic))}. Delete them when it is back."]);
        if (plan.KeepTopics && runs.Count > 0)
            RunWarnings.Warn(warnings, progress, [$"{runs.Count} topics were kept (--keep-topics), named {plan.TopicPrefix}__…: delete them when done."]);
        return Whole(running: false) with { FinishedAtUtc = DateTimeOffset.UtcNow };
    }

    /// <summary>
    /// One run of this process that a coordinator ordered (a worker's share): its topic created, then
    /// <paramref name="beforeStart"/> (the worker says it is ready and waits for the agreed start), the scenario, the topic
    /// deleted.
    /// </summary>
    /// <param name="plan">The plan.</param>
    /// <param name="run">The worker's run: its share of the cell, its own topic.</param>
    /// <param name="client">The client, created once for the plan.</param>
    /// <param name="payload">The payload of the cell's size.</param>
    /// <param name="beforeStart">Awaited once the topic exists, before the scenario; an exception fails the run.</param>
    /// <param name="progress">Receives warnings (a topic that could not be deleted).</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The record and what the scenario measured.</returns>
    public async Task<RunRecord> RunShareAsync(BenchmarkPlan plan, RunDescriptor run, IBenchClient client,
        byte[] payload, Func<CancellationToken, Task> beforeStart, IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(client);
        using var broker = new BrokerWatch(_connection.BrokerExited);
        using var runTokens = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, broker.Token);
        var undeleted = new List<(IBenchClient Client, string Topic)>();
        var result = await _runs.RunOneAsync(plan, run, client, payload, [], progress, broker, undeleted, beforeStart, runTokens.Token, cancellationToken);
        await _runs.SettleAsync([], progress);
        foreach (var (owner, topic) in undeleted)
            await _runs.DeleteTopicAsync(owner, topic, plan.StallTimeout, [], progress, cancellationToken);
        return result;
    }

    /// <summary>The topics a cell created ahead for runs that never came: deleted (briefly once the plan was cancelled), except
    /// when the broker is gone (nobody to ask; its data went with it) or the cluster stopped answering (then they are named
    /// with the plan's other undeleted topics).</summary>
    private static async ValueTask LeaveAheadAsync(TopicsAhead ahead, BrokerWatch broker, string? abortReason, List<(IBenchClient Client, string Topic)> undeleted,
        List<string> warnings, IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        if (broker.Exit is not null) ahead.TakeUnused();
        else if (abortReason is not null && undeleted.Count > 0) undeleted.AddRange(ahead.TakeUnused());
        else await ahead.DeleteUnusedAsync(warnings, progress, cancellationToken);
    }

    /// <summary>A run that did not finish (cancelled, or its broker gone), for the result and the checkpoint of a process
    /// that ends now.</summary>
    /// <param name="run">The run.</param>
    /// <param name="error">Why it did not finish.</param>
    /// <returns>Its record, failed and never counted as measured.</returns>
    public static RunRecord Unfinished(RunDescriptor run, string error)
    {
        ArgumentNullException.ThrowIfNull(run);
        return run.Record(RunRecord.Failed(error));
    }

    /// <summary>The error of a run that was cancelled before it finished.</summary>
    public const string CancelledRunError = "cancelled before this run finished (Ctrl+C or SIGTERM): not measured";
}
