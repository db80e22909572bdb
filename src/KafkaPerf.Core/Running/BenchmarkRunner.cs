using KafkaPerf.Clients;
using KafkaPerf.Load;
using KafkaPerf.Measurement;
using KafkaPerf.Payloads;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;
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
    private static readonly TimeSpan CleanupTimeout = TimeSpan.FromSeconds(30);
    private readonly ClientRegistry _registry;
    private readonly ClientConnection _connection;
    private readonly IClock _clock;

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
        return errors;
    }

    /// <summary>Runs the plan.</summary>
    /// <param name="plan">A validated plan.</param>
    /// <param name="progress">Receives progress; nothing when omitted.</param>
    /// <param name="cancellationToken">Stops the plan; what ran so far is returned.</param>
    /// <returns>The result.</returns>
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
        RunDescriptor? inProgress = null;
        using var planSpan = KafkaPerfTelemetry.StartPlan(plan);
        try
        {
            // Clients start once, before anything is timed (a JVM or a connection costs seconds).
            foreach (var name in plan.Clients)
            {
                var client = _registry.Get(name).Create(_connection);
                clients[name] = client;
                infos[name] = new ClientInfo
                {
                    Name = name, LibraryVersion = client.LibraryVersion, Capabilities = client.Capabilities,
                    Details = client.Details.Count > 0 ? client.Details : null,
                };
            }
            Warn(warnings, progress, plan.Warnings.Concat(PlanWarnings(plan, clients.Values)).Concat(SettingsWarnings(plan)));
            progress.OnPlanStarted(plan);

            int sequence = 0;
            var payloads = new Dictionary<int, byte[]>();
            // Read once, before anything is timed.
            ReadOnlyMemory<byte> fileBytes = plan.Payload == Payloads.PayloadKind.File ? await File.ReadAllBytesAsync(plan.PayloadFile!, cancellationToken) : default;
            foreach (var cell in plan.Cells())
            {
                using var cellSpan = KafkaPerfTelemetry.StartCell(cell);
                if (!payloads.TryGetValue(cell.PayloadBytes, out var payload))
                    payloads[cell.PayloadBytes] = payload = PayloadFactory.Create(plan.Payload, cell.PayloadBytes, plan.Seed, fileBytes);

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
                    sequence++;
                    var topic = TopicNaming.For(plan.TopicPrefix, name, cell.MessageCount, cell.PayloadBytes, sequence);
                    var run = new RunDescriptor(sequence, totalRuns, cell, name, repetition, topic);
                    progress.OnRunStarting(run);
                    inProgress = run;
                    using var runSpan = KafkaPerfTelemetry.StartRun(run);
                    var record = await RunOneAsync(plan, run, clients[name], payload, warnings, progress, cancellationToken);
                    inProgress = null;
                    runs.Add(record.Record);
                    KafkaPerfTelemetry.RunCompleted(runSpan, record.Record);
                    infos[name] = WithConfig(infos[name], record.Measurement, plan.SettingsVariants.Count > 1 ? cell.Variant : null);
                    progress.OnRunCompleted(run, record.Record);
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            cancelled = true;
            // The run that was cut short is in the results too (CSV included), marked, never counted as measured.
            if (inProgress is { } interrupted)
                runs.Add(ToRecord(interrupted, new RunMeasurement { ElapsedSeconds = double.NaN, Error = CancelledRunError }));
        }
        finally
        {
            foreach (var client in clients.Values)
                await client.DisposeAsync();
        }

        if (plan.KeepTopics && runs.Count > 0)
            Warn(warnings, progress, [$"{runs.Count} topics were kept (--keep-topics), named {plan.TopicPrefix}__…: delete them when done."]);
        var cells = ResultSummarizer.Cells(plan, runs);
        return new BenchmarkResult
        {
            StartedAtUtc = started,
            FinishedAtUtc = DateTimeOffset.UtcNow,
            Environment = EnvironmentInfo.Capture(_connection),
            Plan = plan,
            Clients = [.. plan.Clients.Where(infos.ContainsKey).Select(c => infos[c])],
            Runs = runs,
            Cells = cells,
            Comparisons = ResultSummarizer.Comparisons(plan, cells),
            Warnings = warnings,
            Cancelled = cancelled,
        };
    }

    private async ValueTask<(RunRecord Record, RunMeasurement? Measurement)> RunOneAsync(
        BenchmarkPlan plan, RunDescriptor run, IBenchClient client, byte[] payload, List<string> warnings,
        IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        var cell = run.Cell;
        RunMeasurement measurement;
        try
        {
            await client.CreateTopicAsync(new TopicSpec(run.Topic, PartitionsFor(plan, cell)), cancellationToken);
        }
        catch (TopicExistsException ex)
        {
            // Not created here, so not used and not deleted here either: it may be someone else's topic.
            measurement = NotStarted(ex.Message);
            return (ToRecord(run, measurement), measurement);
        }
        catch (Exception ex)
        {
            // The request may have created it before the wait for metadata failed or was cancelled: delete it anyway.
            if (!plan.KeepTopics) await DeleteTopicAsync(client, run.Topic, warnings, progress);
            if (ex is OperationCanceledException) throw;
            measurement = NotStarted($"creating topic '{run.Topic}' failed: {TypeName(ex)}: {ex.Message}");
            return (ToRecord(run, measurement), measurement);
        }
        try
        {
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
            measurement = await Task.Factory.StartNew(
                () => client is IReferenceClient reference ? reference.Run(cell.Scenario, context, cancellationToken)
                    : LoadScenario.Applies(context) ? LoadScenario.For(cell.Scenario).Run(context, cancellationToken)
                    : Scenario.For(cell.Scenario).Run(context, cancellationToken),
                cancellationToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            measurement = Failed(cell, $"{TypeName(ex)}: {ex.Message}");
        }
        finally
        {
            if (!plan.KeepTopics) await DeleteTopicAsync(client, run.Topic, warnings, progress);
        }
        return (ToRecord(run, measurement), measurement);
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

    private static RunMeasurement Failed(PlanCell cell, string error) =>
        new() { Sent = 0, Lost = cell.MessageCount, ElapsedSeconds = double.NaN, Error = error };

    /// <summary>A run that failed before anything was sent: nothing was lost either.</summary>
    private static RunMeasurement NotStarted(string error) => new() { ElapsedSeconds = double.NaN, Error = error };

    private static async ValueTask DeleteTopicAsync(IBenchClient client, string topic, List<string> warnings, IBenchmarkProgress progress)
    {
        // Runs even when the plan was cancelled: no topic is left behind unless asked.
        using var timeout = new CancellationTokenSource(CleanupTimeout);
        try
        {
            await client.DeleteTopicAsync(topic, timeout.Token);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            Warn(warnings, progress, [$"Topic '{topic}' could not be deleted: {ex.Message}"]);
        }
    }

    private static RunRecord ToRecord(RunDescriptor run, RunMeasurement m)
    {
        var cell = run.Cell;
        bool timed = m.Succeeded && m.ElapsedSeconds > 0;
        double messagesPerSecond = timed ? cell.MessageCount / m.ElapsedSeconds : double.NaN;
        return new RunRecord
        {
            Sequence = run.Sequence,
            Client = run.Client,
            Scenario = cell.Scenario,
            MessageCount = cell.MessageCount,
            PayloadBytes = cell.PayloadBytes,
            Variant = cell.Variant,
            Repetition = run.Repetition,
            IsWarmup = run.IsWarmup,
            Topic = run.Topic,
            ElapsedSeconds = m.Succeeded ? m.ElapsedSeconds : double.NaN,
            MessagesPerSecond = messagesPerSecond,
            MegabytesPerSecond = timed ? messagesPerSecond * cell.PayloadBytes / 1e6 : double.NaN,
            Sent = m.Sent,
            Delivered = m.Delivered,
            Received = m.Received,
            Lost = m.Lost,
            Duplicates = m.Duplicates,
            Unexpected = m.Unexpected,
            PayloadMismatches = m.PayloadMismatches,
            PrefetchEnabled = m.PrefetchEnabled,
            Succeeded = m.Succeeded,
            Error = m.Error ?? (m.Succeeded ? null : Describe(m)),
            Latency = m.Latency is { TotalCount: > 0 } h ? LatencySummary.From(h, unitsPerMicrosecond: 1000) : null,
            LatencyHistogram = m.Latency,
            LatencySampleStride = m.LatencySampleStride,
            CountersPerMessage = m.CountersPerMessage,
            Resources = m.Resources,
            OfferedRate = cell.Rate,
            AchievedRate = m.AchievedRate,
            ResponseTime = Summary(m.ResponseTime),
            ServiceTime = Summary(m.ServiceTime),
            SendDelay = Summary(m.SendDelay),
            ResponseTimeHistogram = m.ResponseTime,
            ServiceTimeHistogram = m.ServiceTime,
            SendDelayHistogram = m.SendDelay,
            Intervals = m.Intervals is { Count: > 0 } intervals ? intervals : null,
            StartedAtUtc = m.StartedAtUtc,
            WarmupRecords = m.WarmupRecords,
            Producers = m.Producers,
            Consumers = m.Consumers,
            ServiceTimeMissed = m.ServiceTimeMissed,
        };
    }

    private static LatencySummary? Summary(HdrHistogram.HistogramBase? histogram) =>
        histogram is { TotalCount: > 0 } h ? LatencySummary.From(h, unitsPerMicrosecond: 1000) : null;

    private static string Describe(RunMeasurement m) =>
        $"verification failed: {m.Lost} lost, {m.Duplicates} duplicated, {m.Unexpected} unexpected, {m.PayloadMismatches} payload mismatches";

    private static ClientInfo WithConfig(ClientInfo info, RunMeasurement? m, string? variant)
    {
        info = info with
        {
            ProducerConfig = info.ProducerConfig ?? m?.ProducerConfig,
            ConsumerConfig = info.ConsumerConfig ?? m?.ConsumerConfig,
        };
        if (variant is null || m is null) return info;
        var configs = new Dictionary<string, VariantConfig>(info.VariantConfigs ?? new Dictionary<string, VariantConfig>(), StringComparer.Ordinal);
        var known = configs.GetValueOrDefault(variant);
        configs[variant] = new VariantConfig(known?.ProducerConfig ?? m.ProducerConfig, known?.ConsumerConfig ?? m.ConsumerConfig);
        return info with { VariantConfigs = configs };
    }

    private IEnumerable<string> SettingsWarnings(BenchmarkPlan plan) =>
        plan.Clients.SelectMany(name => plan.SettingsVariants.SelectMany(variant => _registry.Get(name).SettingsWarnings(plan.SettingsFor(variant, name))))
            .Distinct(StringComparer.Ordinal);

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
