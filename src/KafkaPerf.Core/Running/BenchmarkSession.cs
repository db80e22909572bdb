using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>
/// One plan on one broker, wired once: it checks the plan before anything starts, starts (or asks) the broker when a
/// client needs one, runs the plan, a rate search or a worker's shares, and stops what it started. The CLI's
/// <c>run</c>, <c>find-rate</c> and <c>worker</c>, the fluent API (<c>KafkaBenchmark</c>) and the xUnit fixture all go
/// through it.
/// </summary>
/// <remarks>Not thread-safe: one caller drives it. Dispose it on every way out (Ctrl+C included): the broker it started
/// stops then. <see cref="KillNow"/> is for a process that must end at once.</remarks>
public sealed class BenchmarkSession : IAsyncDisposable
{
    private static readonly TimeSpan DisposeTimeout = TimeSpan.FromSeconds(5);

    private readonly ClientRegistry _registry;
    private readonly IBrokerSource? _source;
    private readonly SessionOptions _options;
    private readonly Dictionary<string, IBenchClient> _shareClients = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<int, byte[]> _payloads = [];
    private IBrokerLease? _broker;
    private IRemoteRuns? _remote;
    private BenchmarkRunner? _runner;
    private bool _started;

    /// <summary>Creates a session; nothing starts until <see cref="StartAsync"/> or a run.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="registry">The clients the plan may name.</param>
    /// <param name="broker">Where the broker comes from; <see langword="null"/> when no client of the plan needs one.</param>
    /// <param name="options">Log, checkpoints, workers; none when omitted.</param>
    public BenchmarkSession(BenchmarkPlan plan, ClientRegistry registry, IBrokerSource? broker = null, SessionOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(registry);
        Plan = plan;
        _registry = registry;
        _source = broker;
        _options = options ?? new SessionOptions();
    }

    /// <summary>The plan.</summary>
    public BenchmarkPlan Plan { get; }

    /// <summary>Whether a client of the plan needs a broker (an unknown client counts as needing none; <see cref="Validate"/>
    /// names it).</summary>
    public bool NeedsBroker => Plan.Clients.Any(c => _registry.TryGet(c, out var factory) && factory.RequiresBroker);

    /// <summary>Where clients connect: <see cref="ClusterConnection.None"/> until the session started a broker.</summary>
    public ClusterConnection Connection => _broker?.Connection ?? ClusterConnection.None;

    /// <summary>Where the runs ran when not here (the workers), once started.</summary>
    public IRemoteRuns? Remote => _remote;

    /// <summary>What can be checked before anything starts: every client known, available and accepting its settings; a
    /// broker for the clients that need one, whose cluster can hold the plan; a replication the cluster can hold when its
    /// size is known; and, for a plan that workers run (<see cref="SessionOptions.Remote"/>), what workers cannot run. The
    /// one place a plan is refused: the CLI, the fluent API and the xUnit fixture only read their input.</summary>
    /// <returns>Findings; empty when the plan can run.</returns>
    public IReadOnlyList<ValidationError> Validate()
    {
        // Before the cluster starts, its source says what it will be: its size, and which faults it cannot do.
        var cluster = _broker?.Connection.Facts
            ?? (_source is null ? ClusterConnection.None.Facts
                : new ClusterFacts(HasBroker: true, _source.KnownBrokers, Ephemeral: false, ClusterConnection.None.BrokerName, _source.RefuseFault)
                {
                    ShapesNetwork = _source.ShapesNetwork,
                });
        var findings = new PlanChecks(_registry, cluster).All(Plan, onWorkers: _options.Remote is not null);
        if (_options.Profiler is { } profiler)
        {
            if (_options.Remote is not null)
                findings = [.. findings, new ValidationError(ValidationSeverity.Error, "--profile samples this process, and with --workers or --processes the runs run in worker processes: drop one of them.")];
            else if (profiler.Unavailable() is { } unavailable)
                findings = [.. findings, new ValidationError(ValidationSeverity.Error, unavailable)];
        }
        // The source's refusal is asked before it starts: once started, the cluster's own state says the rest.
        if (findings.Count == 0 && _broker is null && NeedsBroker && _source?.RefusePlan(Plan) is { } refusal)
            return [new ValidationError(ValidationSeverity.Error, refusal)];
        return findings;
    }

    /// <summary>Starts the broker when a client needs one (or checks that the cluster answers), then checks the plan against
    /// it (a cluster too small for its replication), then gathers the workers when the runs are theirs.</summary>
    /// <param name="cancellationToken">Stops the start; what started is stopped by <see cref="DisposeAsync"/>.</param>
    /// <returns>A task that completes when the session can run.</returns>
    /// <exception cref="PlanValidationException">The plan cannot run here (before anything started, or on the cluster it got).</exception>
    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        if (_started) return;
        ThrowIfInvalid(Validate());
        if (NeedsBroker)
        {
            if (_source is null) throw new PlanValidationException("A client of the plan needs a Kafka broker, and the session was given none.");
            _broker = await _source.ConnectAsync(_options.Log, cancellationToken).ConfigureAwait(false);
            // The cluster's size is known now: a replication it cannot hold is said before any run.
            ThrowIfInvalid(Validate());
        }
        if (_options.Remote is { } remote) _remote = await remote(Connection, cancellationToken).ConfigureAwait(false);
        // Attached before the first run, its sampling off: the sampler's start is timed nowhere.
        if (_options.Profiler is { } profiler) await profiler.StartAsync(cancellationToken).ConfigureAwait(false);
        _runner = new BenchmarkRunner(_registry, Connection, _options.Clock) { Checkpoints = _options.Checkpoints, Remote = _remote, Profiler = _options.Profiler };
        _started = true;
    }

    /// <summary>Runs the plan, starting the session first when it was not.</summary>
    /// <param name="progress">Receives progress; nothing when omitted.</param>
    /// <param name="cancellationToken">Stops the runs; what ran so far is returned, marked cancelled.</param>
    /// <returns>The result.</returns>
    public async Task<BenchmarkResult> RunAsync(IBenchmarkProgress? progress = null, CancellationToken cancellationToken = default)
    {
        await StartAsync(cancellationToken).ConfigureAwait(false);
        var result = await _runner!.RunAsync(Plan, progress, cancellationToken).ConfigureAwait(false);
        if (_options.Profiler is not { } profiler || cancellationToken.IsCancellationRequested) return result;
        return result with { Profiles = await profiler.FinishAsync(result.Runs, cancellationToken).ConfigureAwait(false) };
    }

    /// <summary>Searches the highest rate that holds a latency goal, per client and cell of the plan (a rate plan, whose
    /// rate is the search's first probe), starting the session first when it was not.</summary>
    /// <param name="search">The goals and bounds.</param>
    /// <param name="cancellationToken">Stops the search; what was probed is returned, marked cancelled.</param>
    /// <returns>The result, with every probe's runs and the searches.</returns>
    public async Task<BenchmarkResult> FindRateAsync(RateSearchOptions search, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(search);
        await StartAsync(cancellationToken).ConfigureAwait(false);
        var runner = new BenchmarkRunner(_registry, Connection, _options.Clock);
        return await RateFinder.RunAsync(Plan, search, runner, Connection, _options.Log, _options.Checkpoints, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Starts the session and creates the plan's clients for <see cref="RunShareAsync"/>, before anything is timed
    /// (a JVM takes seconds): a worker does it as a plan arrives.</summary>
    /// <param name="cancellationToken">Stops the start.</param>
    /// <returns>A task that completes when every client exists.</returns>
    /// <exception cref="PlanValidationException">A client is unknown, cannot run here, or refuses its settings.</exception>
    public async Task CreateShareClientsAsync(CancellationToken cancellationToken = default)
    {
        await StartAsync(cancellationToken).ConfigureAwait(false);
        foreach (var name in Plan.Clients)
        {
            if (_shareClients.ContainsKey(name)) continue;
            if (!_registry.TryGet(name, out var factory)) throw new PlanValidationException(_registry.UnknownClientMessage(name));
            if (factory.CheckAvailability() is { } missing) throw new PlanValidationException($"client '{name}' cannot run here: {missing}");
            _shareClients[name] = factory.Create(Connection.Endpoint with { StallTimeout = Plan.StallTimeout });
        }
    }

    /// <summary>Runs one run of this process that a coordinator ordered (a worker's share of a cell): its topic created,
    /// then <paramref name="beforeStart"/>, the scenario, the topic deleted.</summary>
    /// <param name="run">The worker's run: its share of the cell, its own topic.</param>
    /// <param name="beforeStart">Awaited once the topic exists, before the scenario (the worker says it is ready and waits
    /// for the agreed start); an exception fails the run.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The run's record.</returns>
    public async Task<RunRecord> RunShareAsync(RunDescriptor run, Func<CancellationToken, Task> beforeStart, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        await CreateShareClientsAsync(cancellationToken).ConfigureAwait(false);
        var payload = await PayloadAsync(run.Cell.PayloadBytes, cancellationToken).ConfigureAwait(false);
        return await _runner!.RunShareAsync(Plan, run, _shareClients[run.Client], payload, beforeStart, NullProgress.Instance, cancellationToken)
            .ConfigureAwait(false);
    }

    /// <summary>What a client of <see cref="RunShareAsync"/> is, for the coordinator's result.</summary>
    /// <param name="client">The client's name.</param>
    /// <returns>Its description; <see langword="null"/> when it was not created.</returns>
    public ClientInfo? DescribeShareClient(string client) => _shareClients.TryGetValue(client, out var c)
        ? new ClientInfo { Name = c.Name, LibraryVersion = c.LibraryVersion, Capabilities = c.Capabilities, Details = c.Details.Count > 0 ? c.Details : null }
        : null;

    /// <summary>For a process that must end now: kills the broker the session started (SIGKILL), without waiting.</summary>
    public void KillNow() => _broker?.KillNow();

    /// <summary>Closes the share clients, the workers' coordinator and the broker the session started.</summary>
    /// <returns>A task that completes when they are gone.</returns>
    public async ValueTask DisposeAsync()
    {
        foreach (var client in _shareClients.Values)
        {
            var dispose = Task.Run(async () => await client.DisposeAsync().ConfigureAwait(false));
            if (await Task.WhenAny(dispose, Task.Delay(DisposeTimeout)).ConfigureAwait(false) != dispose)
                _options.Log?.WriteLine($"kafkaperf: client '{client.Name}' did not close within {DisposeTimeout.TotalSeconds:0} s.");
        }
        _shareClients.Clear();
        if (_remote is IAsyncDisposable remote) await remote.DisposeAsync().ConfigureAwait(false);
        if (_options.Profiler is { } profiler) await profiler.DisposeAsync().ConfigureAwait(false);
        if (_broker is not null) await _broker.DisposeAsync().ConfigureAwait(false);
        _broker = null;
    }

    private async Task<byte[]> PayloadAsync(int size, CancellationToken cancellationToken)
    {
        if (_payloads.TryGetValue(size, out var payload)) return payload;
        ReadOnlyMemory<byte> file = Plan.Payload == PayloadKind.File ? await File.ReadAllBytesAsync(Plan.PayloadFile!, cancellationToken).ConfigureAwait(false) : default;
        return _payloads[size] = PayloadFactory.Create(Plan.Payload, size, Plan.Seed, file);
    }

    private static void ThrowIfInvalid(IReadOnlyList<ValidationError> findings)
    {
        if (findings.Count > 0) throw new PlanValidationException(findings);
    }
}
