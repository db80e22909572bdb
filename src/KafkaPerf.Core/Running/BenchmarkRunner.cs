using System.Diagnostics;
using System.Globalization;
using KafkaPerf.Clients;
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
/// repetitions in balanced or shuffled order, each on a topic of its own that is created before and deleted after.
/// </summary>
/// <remarks>Cancellation stops between or inside runs; the result then holds every run done so far and is
/// marked <see cref="BenchmarkResult.Cancelled"/>.</remarks>
public sealed class BenchmarkRunner
{
    /// <summary>How long a cancelled run's threads get to give their client calls back before the runner goes on without them.</summary>
    private static readonly TimeSpan AbandonAfter = TimeSpan.FromSeconds(1.5);

    /// <summary>How long deleting a topic may take once the plan was cancelled.</summary>
    private static readonly TimeSpan CancelledCleanup = TimeSpan.FromSeconds(1);

    /// <summary>How long closing a client may take at the end of the plan.</summary>
    private static readonly TimeSpan DisposeTimeout = TimeSpan.FromSeconds(5);

    /// <summary>One question to a cluster after a failed run.</summary>
    private static readonly TimeSpan ClusterProbeTimeout = TimeSpan.FromSeconds(2);

    /// <summary>An answer slower than this after a failed run is reported: the cluster was away.</summary>
    private static readonly TimeSpan SlowAnswer = TimeSpan.FromSeconds(1);

    /// <summary>The pause between questions to a cluster that does not answer.</summary>
    private static readonly TimeSpan ClusterRetry = TimeSpan.FromMilliseconds(500);
    private readonly ClientRegistry _registry;
    private readonly ClientConnection _connection;
    private readonly IClock _clock;

    // A plan of this runner has run on the cluster (its warm-up or a run): the cluster has served load. find-rate's
    // probes after the first are plans of the same runner.
    private bool _servedLoad;

    /// <summary>Creates a runner.</summary>
    /// <param name="registry">The clients plans may name.</param>
    /// <param name="connection">Where clients connect.</param>
    /// <param name="clock">The clock; the stopwatch when omitted.</param>
    public BenchmarkRunner(ClientRegistry registry, ClientConnection connection, IClock? clock = null)
    {
        ArgumentNullException.ThrowIfNull(registry);
        ArgumentNullException.ThrowIfNull(connection);
        _registry = registry;
        _connection = connection;
        _clock = clock ?? StopwatchClock.Instance;
    }

    /// <summary>Checks that every client of the plan is registered and has what it needs.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>Findings; empty when the plan can run here.</returns>
    public IReadOnlyList<ValidationError> Validate(BenchmarkPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var errors = new List<ValidationError>();
        foreach (var name in plan.Clients)
        {
            if (!_registry.TryGet(name, out var factory))
                errors.Add(new ValidationError(ValidationSeverity.Error, plan.IsReference(name) ? _registry.UnknownReferenceMessage(name) : _registry.UnknownClientMessage(name)));
            else if (factory.IsReference != plan.IsReference(name))
                errors.Add(new ValidationError(ValidationSeverity.Error, factory.IsReference
                    ? $"'{name}' is a reference tool, not a client: name it in --references."
                    : $"'{name}' is a client, not a reference tool: name it in --clients."));
            else if (factory.CheckAvailability() is { } unavailable)
                errors.Add(new ValidationError(ValidationSeverity.Error, $"Client '{name}' cannot run here: {unavailable}"));
            else if (plan.SettingsVariants.Select(v => factory.CheckSettings(plan.SettingsFor(v, name))).FirstOrDefault(p => p is not null) is { } badSettings)
                errors.Add(new ValidationError(ValidationSeverity.Error, $"Client '{name}' does not accept its settings: {badSettings}"));
            else if (factory.RequiresBroker && string.IsNullOrWhiteSpace(_connection.BootstrapServers))
                errors.Add(new ValidationError(ValidationSeverity.Error, $"Client '{name}' needs a Kafka broker: give one with --bootstrap host:port."));
        }
        if (_connection.Brokers is { } brokers)
        {
            int replicas = plan.ReplicationFactorFor(brokers);
            if (replicas > brokers)
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"Replication factor {replicas} is more than the cluster's {brokers} broker(s): use --replication-factor {brokers} or less, or a cluster with more brokers (--brokers {replicas})."));
            else if (plan.MinInSyncReplicas is { } minIsr && minIsr > replicas)
                errors.Add(new ValidationError(ValidationSeverity.Error,
                    $"min.insync.replicas {minIsr} is more than the topics' replication factor {replicas}: no write with acks=all could succeed; use --min-insync-replicas {replicas} or less."));
        }
        return errors;
    }

    /// <summary>Receives the result after every run, before the next one starts (the CLI's checkpoint files);
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
        var connection = _connection with { StallTimeout = plan.StallTimeout };
        using var broker = new BrokerWatch(_connection.BrokerExited);
        // A run's calls end when the plan is cancelled or the broker process is gone, whichever comes first.
        using var runTokens = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, broker.Token);
        using var planSpan = KafkaPerfTelemetry.StartPlan(plan);

        string? clusterWarmup = null;
        BenchmarkResult Snapshot(bool running) => Result(plan, started, runs, infos, warnings, cancelled, abortReason, running) with { ClusterWarmup = clusterWarmup };

        try
        {
            // Clients start once, before anything is timed (a JVM or a connection costs seconds).
            foreach (var name in plan.Clients)
            {
                if (Remote is not null)
                {
                    // The workers create the clients; what they are is known once they said so.
                    infos[name] = new ClientInfo { Name = name, LibraryVersion = "(on the workers)", Capabilities = default };
                    continue;
                }
                var client = _registry.Get(name).Create(connection);
                clients[name] = client;
                infos[name] = new ClientInfo
                {
                    Name = name, LibraryVersion = client.LibraryVersion, Capabilities = client.Capabilities,
                    Details = client.Details.Count > 0 ? client.Details : null,
                };
            }
            Warn(warnings, progress, plan.Warnings.Concat(PlanWarnings(plan, clients.Values)).Concat(SettingsWarnings(plan)).Concat(ColdClusterWarning(plan)));
            progress.OnPlanStarted(plan);

            int sequence = 0;
            var payloads = new Dictionary<int, byte[]>();
            // Read once, before anything is timed.
            ReadOnlyMemory<byte> fileBytes = plan.Payload == Payloads.PayloadKind.File ? await File.ReadAllBytesAsync(plan.PayloadFile!, cancellationToken) : default;
            byte[] PayloadOf(int size) => payloads.TryGetValue(size, out var made) ? made
                : payloads[size] = PayloadFactory.Create(plan.Payload, size, plan.Seed, fileBytes);
            _servedLoad = true;
            if (plan.ClusterWarmup > TimeSpan.Zero && Remote is null && plan.Cells().FirstOrDefault() is { } first)
                clusterWarmup = await WarmUpClusterAsync(plan, first, PayloadOf(first.PayloadBytes), clients, warnings, progress, broker, undeleted, runTokens.Token, cancellationToken);
            foreach (var cell in plan.Cells())
            {
                using var cellSpan = KafkaPerfTelemetry.StartCell(cell);
                var payload = PayloadOf(cell.PayloadBytes);

                // References run only produce and consume, without warm-up: every run of theirs is a process of its own.
                var cellClients = plan.ClientsFor(cell);
                var order = new List<(string Client, int Repetition)>();
                order.AddRange(cellClients.Where(c => plan.HasWarmupRun(cell, c)).Select(c => (c, 0)));
                order.AddRange(plan.Order == RunOrderKind.Shuffled
                    ? RunOrder.Shuffled(cellClients, plan.Repeat, plan.Seed + sequence)
                    : RunOrder.Balanced(cellClients, plan.Repeat));

                foreach (var (name, repetition) in order)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    if (broker.Exit is { } exit)
                    {
                        abortReason = exit.Describe($"before run {sequence + 1}");
                        break;
                    }
                    sequence++;
                    var topic = TopicNaming.For(plan.TopicPrefix, name, cell.MessageCount, cell.PayloadBytes, sequence);
                    var run = new RunDescriptor(sequence, totalRuns, cell, name, repetition, topic);
                    progress.OnRunStarting(run);
                    Checkpoints?.OnRunStarting(run, () => Snapshot(running: true));
                    inProgress = run;
                    using var runSpan = KafkaPerfTelemetry.StartRun(run);
                    var record = Remote is { } remote
                        ? await RunRemoteAsync(remote, run, plan, runTokens.Token)
                        : await RunOneAsync(plan, run, clients[name], payload, warnings, progress, broker, undeleted, null, runTokens.Token, cancellationToken);
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
                        abortReason = await AwaitClusterAsync(check, plan.StallTimeout, run.Sequence, warnings, progress, cancellationToken);
                        if (abortReason is null)
                        {
                            foreach (var (owner, leftover) in undeleted)
                                await DeleteTopicAsync(owner, leftover, plan.StallTimeout, warnings, progress, cancellationToken);
                            undeleted.Clear();
                        }
                    }
                    runs.Add(record);
                    KafkaPerfTelemetry.RunCompleted(runSpan, record);
                    infos[name] = WithConfig(infos[name], record, plan.SettingsVariants.Count > 1 ? cell.Variant : null);
                    // Saved before it is shown: a run on the screen is a run in the files.
                    Checkpoints?.OnRunCompleted(Snapshot(running: abortReason is null));
                    progress.OnRunCompleted(run, record);
                    if (abortReason is not null) break;
                }
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
                Checkpoints?.OnRunCompleted(Snapshot(running: false));
                progress.OnRunCompleted(interrupted, record);
            }
            else if (!cancelled)
            {
                abortReason = broker.Exit!.Describe("before the first run");
            }
        }
        finally
        {
            foreach (var client in clients.Values)
                await DisposeBoundedAsync(client, warnings, progress);
        }

        // Said once by whoever shows the result (the CLI's last line); kept in the result's warnings for the reports.
        if (abortReason is not null) lock (warnings) warnings.Add($"The plan stopped early: {abortReason}.");
        if (undeleted.Count > 0 && !_connection.Ephemeral)
            Warn(warnings, progress, [$"{undeleted.Count} topic(s) could not be deleted while {_connection.BrokerName} did not answer: {string.Join(", ", undeleted.Select(u => u.Topic))}. Delete them when it is back."]);
        if (plan.KeepTopics && runs.Count > 0)
            Warn(warnings, progress, [$"{runs.Count} topics were kept (--keep-topics), named {plan.TopicPrefix}__…: delete them when done."]);
        return Snapshot(running: false) with { FinishedAtUtc = DateTimeOffset.UtcNow };
    }

    /// <summary>Records per round of the cluster warm-up: about 16 MiB of the first cell's size, 1 000 to 100 000 records.</summary>
    /// <param name="payloadBytes">The first cell's payload size.</param>
    /// <returns>The records each round produces and consumes.</returns>
    private static int ClusterWarmupRecords(int payloadBytes) => (int)Math.Clamp((16L << 20) / Math.Max(1, payloadBytes), 1_000, 100_000);

    /// <summary>
    /// Rounds of the consume scenario (a topic filled, then read) on topics of their own, the plan's clients in turn, until
    /// <see cref="BenchmarkPlan.ClusterWarmup"/> has passed: the brokers compile their produce, fetch and replication paths
    /// before the first measured run instead of during it. No round is recorded as a run; a failed round ends the warm-up
    /// with a warning and the plan goes on (its runs then say what is wrong).
    /// </summary>
    /// <returns>What the warm-up did, for the result.</returns>
    private async Task<string?> WarmUpClusterAsync(BenchmarkPlan plan, PlanCell first, byte[] payload, Dictionary<string, IBenchClient> clients,
        List<string> warnings, IBenchmarkProgress progress, BrokerWatch broker, List<(IBenchClient Client, string Topic)> undeleted,
        CancellationToken runToken, CancellationToken cancellationToken)
    {
        var names = plan.Clients.Where(c => !plan.IsReference(c) && clients.ContainsKey(c)).ToList();
        if (names.Count == 0)
        {
            Warn(warnings, progress, ["The cluster warm-up needs a client (--clients); reference tools alone do not warm it up."]);
            return null;
        }
        int records = ClusterWarmupRecords(first.PayloadBytes);
        var cell = first with { Scenario = ScenarioKind.Consume, MessageCount = records, Rate = null };
        long started = Stopwatch.GetTimestamp();
        int rounds = 0;
        string? failure = null;
        while (Stopwatch.GetElapsedTime(started) < plan.ClusterWarmup && broker.Exit is null)
        {
            cancellationToken.ThrowIfCancellationRequested();
            string name = names[rounds % names.Count];
            rounds++;
            var topic = TopicNaming.ForClusterWarmup(plan.TopicPrefix, name, rounds);
            var record = await RunOneAsync(plan, new RunDescriptor(0, plan.TotalRuns, cell, name, 0, topic), clients[name], payload,
                warnings, progress, broker, undeleted, null, runToken, cancellationToken);
            // Its traffic reached the cluster: it counts on the telemetry's counters, as a warm-up run's does.
            KafkaPerfTelemetry.RunCompleted(null, record);
            if (!record.Succeeded)
            {
                failure = $"{name}'s round {rounds} failed ({record.Error})";
                break;
            }
        }
        // A failed round's topic: deleted now (bounded by the stall timeout), not left for the first run to find.
        foreach (var (owner, leftover) in undeleted)
            await DeleteTopicAsync(owner, leftover, plan.StallTimeout, warnings, progress, cancellationToken);
        undeleted.Clear();
        double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        string done = string.Create(CultureInfo.InvariantCulture,
            $"{rounds} round(s) of {records:N0} × {first.PayloadBytes:N0} B produced and consumed by {string.Join(", ", names.Take(rounds))} in turn, {seconds:0.0} s");
        if (failure is not null)
        {
            Warn(warnings, progress, [$"The cluster warm-up stopped early: {failure}; the plan goes on."]);
            return $"{done}; stopped early: {failure}";
        }
        return done;
    }

    /// <summary>The result of <paramref name="runs"/> so far.</summary>
    private BenchmarkResult Result(BenchmarkPlan plan, DateTimeOffset started, List<RunRecord> runs, Dictionary<string, ClientInfo> infos,
        List<string> warnings, bool cancelled, string? abortReason, bool inProgress)
    {
        var cells = ResultSummarizer.Cells(plan, runs);
        List<string> warningsNow;
        lock (warnings) warningsNow = [.. warnings];
        return new BenchmarkResult
        {
            StartedAtUtc = started,
            FinishedAtUtc = DateTimeOffset.UtcNow,
            Environment = EnvironmentInfo.Capture(_connection),
            Plan = plan,
            Clients = [.. plan.Clients.Where(infos.ContainsKey).Select(c => infos[c])],
            Runs = [.. runs],
            Cells = cells,
            Comparisons = ResultSummarizer.Comparisons(plan, cells),
            Warnings = warningsNow,
            Cancelled = cancelled,
            AbortReason = abortReason,
            InProgress = inProgress,
        };
    }

    /// <summary>Asks the cluster until it answers or the stall timeout has passed.</summary>
    /// <returns><see langword="null"/> when it answered; otherwise the line that ends the plan.</returns>
    private async Task<string?> AwaitClusterAsync(Func<TimeSpan, CancellationToken, Task<string?>> check, TimeSpan stallTimeout, int failedRun,
        List<string> warnings, IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        long since = Stopwatch.GetTimestamp();
        bool waiting = false;
        string? why = null;
        while (true)
        {
            var left = stallTimeout - Stopwatch.GetElapsedTime(since);
            if (left > TimeSpan.Zero)
            {
                long asked = Stopwatch.GetTimestamp();
                why = await check(left < ClusterProbeTimeout ? left : ClusterProbeTimeout, cancellationToken);
                // An answer that took its time is news too: the broker was away.
                waiting |= Stopwatch.GetElapsedTime(asked) > SlowAnswer;
                if (why is null)
                {
                    if (waiting) Warn(warnings, progress, [$"{Capitalized(_connection.BrokerName)} at {_connection.BootstrapServers} answers again after {Stopwatch.GetElapsedTime(since).TotalSeconds:0.#} s: the plan goes on (run {failedRun} is listed as failed)."]);
                    return null;
                }
            }
            left = stallTimeout - Stopwatch.GetElapsedTime(since);
            if (left <= TimeSpan.Zero)
                return $"{_connection.BrokerName} at {_connection.BootstrapServers} did not answer for {stallTimeout.TotalSeconds:0.#} s (--stall-timeout) after run {failedRun} failed ({why ?? "no answer"})";
            if (!waiting)
            {
                progress.OnWarning($"Run {failedRun} failed and {_connection.BrokerName} at {_connection.BootstrapServers} does not answer ({why}): waiting up to {stallTimeout.TotalSeconds:0.#} s for it.");
                waiting = true;
            }
            await Task.Delay(left < ClusterRetry ? left : ClusterRetry, cancellationToken);
        }
    }

    private static string Capitalized(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..];

    /// <summary>One run on the workers.</summary>
    private static async ValueTask<RunRecord> RunRemoteAsync(
        IRemoteRuns remote, RunDescriptor run, BenchmarkPlan plan, CancellationToken runToken)
    {
        RunRecord measurement;
        try
        {
            measurement = await remote.RunAsync(plan, run, runToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            measurement = RunRecord.Failed(lost: run.Cell.MessageCount, error: $"{TypeName(ex)}: {ex.Message}");
        }
        return run.Record(measurement);
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
        var result = await RunOneAsync(plan, run, client, payload, [], progress, broker, undeleted, beforeStart, runTokens.Token, cancellationToken);
        foreach (var (owner, topic) in undeleted)
            await DeleteTopicAsync(owner, topic, plan.StallTimeout, [], progress, cancellationToken);
        return result;
    }

    private async ValueTask<RunRecord> RunOneAsync(
        BenchmarkPlan plan, RunDescriptor run, IBenchClient client, byte[] payload, List<string> warnings,
        IBenchmarkProgress progress, BrokerWatch broker, List<(IBenchClient Client, string Topic)> undeleted,
        Func<CancellationToken, Task>? beforeStart, CancellationToken runToken, CancellationToken cancellationToken)
    {
        var cell = run.Cell;
        RunRecord? measurement = null;
        bool ownsTopic = true;
        try
        {
            try
            {
                // Bounded like every other wait: a cluster that does not answer fails the run, not the plan.
                using var createTimeout = CancellationTokenSource.CreateLinkedTokenSource(runToken);
                createTimeout.CancelAfter(plan.StallTimeout);
                try
                {
                    await client.CreateTopicAsync(new TopicSpec(run.Topic, PartitionsFor(plan, cell),
                        (short)plan.ReplicationFactorFor(_connection.Brokers), plan.MinInSyncReplicas), createTimeout.Token);
                }
                catch (OperationCanceledException ex) when (!runToken.IsCancellationRequested)
                {
                    throw new TimeoutException($"no answer within {plan.StallTimeout.TotalSeconds:0.#} s (--stall-timeout)", ex);
                }
            }
            catch (TopicExistsException ex)
            {
                // Not created here, so not used and not deleted here either: it may be someone else's topic.
                ownsTopic = false;
                measurement = RunRecord.Failed(ex.Message);
                return run.Record(measurement);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                measurement = RunRecord.Failed($"creating topic '{run.Topic}' failed: {TypeName(ex)}: {ex.Message}");
                return run.Record(measurement);
            }
            try
            {
                if (beforeStart is not null) await beforeStart(runToken);
                var context = new ScenarioContext
                {
                    Client = client,
                    Topic = run.Topic,
                    MessageCount = cell.MessageCount,
                    Payload = payload,
                    Settings = plan.SettingsFor(cell, run.Client),
                    UsePrefetch = plan.UsePrefetch,
                    CheckPayload = plan.CheckPayload,
                    StallTimeout = plan.StallTimeout,
                    Broker = _connection.BrokerProbe,
                    Clock = _clock,
                    Load = plan.LoadOf(cell),
                    Producers = cell.Settings.Producers ?? 1,
                    Consumers = cell.Settings.Consumers ?? 1,
                    Interval = plan.Interval,
                };
                // Garbage from the previous run is collected now, not inside the next timed section.
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                var scenario = Task.Factory.StartNew(
                    () => Scenario.For(cell.Scenario, context).Run(context, runToken),
                    runToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);
                measurement = await AwaitRunAsync(scenario, runToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                measurement = RunRecord.Failed(lost: cell.MessageCount, error: $"{TypeName(ex)}: {ex.Message}");
            }
            return run.Record(measurement);
        }
        finally
        {
            if (ownsTopic && !plan.KeepTopics)
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
                else
                {
                    await DeleteTopicAsync(client, run.Topic, plan.StallTimeout, warnings, progress, cancellationToken);
                }
            }
        }
    }

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

    /// <summary>Disposes a client, waiting at most a few seconds: a client whose broker is gone may not close cleanly.</summary>
    private static async Task DisposeBoundedAsync(IBenchClient client, List<string> warnings, IBenchmarkProgress progress)
    {
        var dispose = Task.Run(async () => await client.DisposeAsync());
        if (await Task.WhenAny(dispose, Task.Delay(DisposeTimeout)) != dispose)
        {
            _ = dispose.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            Warn(warnings, progress, [$"Client '{client.Name}' did not close within {DisposeTimeout.TotalSeconds:0} s; it was left to the end of the process."]);
            return;
        }
        try
        {
            await dispose;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            Warn(warnings, progress, [$"Client '{client.Name}' did not close cleanly: {ex.Message}"]);
        }
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

    /// <summary>A run's topic partitions: the variant's or the plan's, and at least one per consumer of the group.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="cell">The cell.</param>
    /// <returns>The partition count.</returns>
    public static int PartitionsFor(BenchmarkPlan plan, PlanCell cell)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(cell);
        return Math.Max(cell.Settings.Partitions ?? plan.Partitions, cell.Settings.Consumers ?? 1);
    }

    /// <summary>An exception's type without generic arity (ProduceException, not ProduceException`2).</summary>
    private static string TypeName(Exception ex)
    {
        var name = ex.GetType().Name;
        int tick = name.IndexOf('`', StringComparison.Ordinal);
        return tick < 0 ? name : name[..tick];
    }

    /// <summary>The error of a run that was cancelled before it finished.</summary>
    public const string CancelledRunError = "cancelled before this run finished (Ctrl+C or SIGTERM): not measured";

    private async ValueTask DeleteTopicAsync(IBenchClient client, string topic, TimeSpan stallTimeout, List<string> warnings,
        IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        // Runs even when the plan was cancelled (no topic is left behind unless asked), but then briefly: the process has
        // seconds to end.
        using var timeout = new CancellationTokenSource(cancellationToken.IsCancellationRequested ? CancelledCleanup : stallTimeout);
        using var shorten = cancellationToken.Register(static state => ((CancellationTokenSource)state!).CancelAfter(CancelledCleanup), timeout);
        try
        {
            await client.DeleteTopicAsync(topic, timeout.Token);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            Warn(warnings, progress, [$"Topic '{topic}' could not be deleted: no answer within {(cancellationToken.IsCancellationRequested ? CancelledCleanup : stallTimeout).TotalSeconds:0.#} s.{(_connection.Ephemeral ? string.Empty : " Delete it by hand.")}"]);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            Warn(warnings, progress, [$"Topic '{topic}' could not be deleted: {ex.Message}"]);
        }
    }

    private static ClientInfo WithConfig(ClientInfo info, RunRecord? m, string? variant)
    {
        info = info with
        {
            ProducerConfig = info.ProducerConfig ?? Masked(m?.ProducerConfig),
            ConsumerConfig = info.ConsumerConfig ?? Masked(m?.ConsumerConfig),
        };
        if (variant is null || m is null) return info;
        var configs = new Dictionary<string, VariantConfig>(info.VariantConfigs ?? new Dictionary<string, VariantConfig>(), StringComparer.Ordinal);
        var known = configs.GetValueOrDefault(variant);
        configs[variant] = new VariantConfig(known?.ProducerConfig ?? Masked(m.ProducerConfig), known?.ConsumerConfig ?? Masked(m.ConsumerConfig));
        return info with { VariantConfigs = configs };
    }

    /// <summary>A client's effective configuration for the result, whatever the client did: every secret hidden.</summary>
    private static Dictionary<string, string>? Masked(IReadOnlyDictionary<string, string>? config) => config is null ? null : KafkaSecurity.Mask(config);

    private IEnumerable<string> SettingsWarnings(BenchmarkPlan plan) =>
        plan.Clients.SelectMany(name => plan.SettingsVariants.SelectMany(variant => _registry.Get(name).SettingsWarnings(plan.SettingsFor(variant, name))))
            .Distinct(StringComparer.Ordinal);

    /// <summary>A rate plan on a cluster started for it, without a cluster warm-up: its first cells measure the cluster's
    /// JVMs compiling (docs/BENCHMARKS.md, "A just-started cluster").</summary>
    private IEnumerable<string> ColdClusterWarning(BenchmarkPlan plan)
    {
        if (plan.IsRate && _connection.Ephemeral && plan.ClusterWarmup == TimeSpan.Zero && Remote is null && !_servedLoad)
            yield return $"{Capitalized(_connection.BrokerName)} was started for this plan and has not served any load yet: the first cells' latency will "
                + "be the cluster warming up, not their settings (a new 3-broker cluster at 2 000 msg/s: p95 35 ms in the first cell, 10 ms in the second, "
                + "1 ms from the third on). Add --cluster-warmup 60s to warm it up first (90s to 120s for 3 brokers on 2 cores).";
    }

    private static IEnumerable<string> PlanWarnings(BenchmarkPlan plan, IEnumerable<IBenchClient> clients)
    {
        bool consumes = plan.Scenarios.Any(s => s != ScenarioKind.Produce);
        foreach (var client in clients)
        {
            foreach (var warning in client.Warnings) yield return warning;
            // A reference measures what its tool reports: no latency, no prefetch, said once in its Details.
            if (client is IReferenceClient) continue;
            if (plan.UsePrefetch && consumes && !client.Capabilities.HasFlag(ClientCapabilities.Prefetch))
                yield return $"Client '{client.Name}' has no prefetch: UsePrefetch is off for it.";
            if (plan.Scenarios.Contains(ScenarioKind.Produce) && !client.Capabilities.HasFlag(ClientCapabilities.DeliveryLatency))
                yield return $"Client '{client.Name}' does not report per-record acknowledgements: produce runs record no send→ack latency for it.";
        }
    }

    private static void Warn(List<string> warnings, IBenchmarkProgress progress, IEnumerable<string> messages)
    {
        foreach (var message in messages)
        {
            lock (warnings) warnings.Add(message);
            progress.OnWarning(message);
        }
    }
}
