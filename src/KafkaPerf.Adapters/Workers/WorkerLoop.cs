using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// The worker side of the worker protocol (<see cref="WorkerMessage"/>): says it is there, takes a plan a coordinator
/// sends it (a <see cref="PlanDocument"/>), creates the plan's clients in a <see cref="BenchmarkSession"/>, runs its share
/// of every run when told, and sends back what it measured. Between plans it waits; a coordinator that goes silent for
/// the plan's stall timeout is given up on.
/// </summary>
/// <param name="clientsFor">The clients a plan may name, given the names it uses (the tool's own, its plugins', and
/// the client versions it asks for, restored once).</param>
/// <param name="bus">The group's transport.</param>
/// <param name="name">This worker's name in the group and in results.</param>
/// <param name="connection">The cluster the runs load.</param>
/// <param name="log">Where its lines go (each begins <c>kafkaperf worker NAME: </c>).</param>
/// <param name="verbose">Whether every step of a run is said too.</param>
public sealed class WorkerLoop(Func<IReadOnlyList<string>, CancellationToken, Task<ClientRegistry>> clientsFor, IWorkerTransport bus, string name, ClusterConnection connection, TextWriter log, bool verbose = false) : IDisposable
{
    /// <summary>This tool's version and its runtime's, as workers announce them.</summary>
    public static string ToolVersion => WorkerMessage.ToolVersion;

    private BenchmarkSession? _session;
    private string? _planId;
    private string? _coordinator;
    private BenchmarkPlan? _plan;
    private List<PlanCell>? _cells;
    private TimeSpan _stall = TimeSpan.FromSeconds(30);
    private long _coordinatorHeard;
    private Task? _setup;
    private Task? _run;
    private CancellationTokenSource? _planCancel;
    private TaskCompletionSource<long>? _start;
    private int _runSequence;

    /// <summary>Runs plans until <paramref name="cancellationToken"/> is cancelled, <paramref name="plans"/> have ended, or
    /// the process <paramref name="parent"/> has ended.</summary>
    /// <param name="parent">A process whose end ends the worker (the tool's own local workers); <see langword="null"/> for none.</param>
    /// <param name="plans">How many plans to run; <see langword="null"/> for no limit.</param>
    /// <param name="cancellationToken">Ends it (Ctrl+C, SIGTERM).</param>
    /// <returns>A task that completes when it ends; <see cref="LeaveAsync"/> then ends what is under way.</returns>
    public async Task RunAsync(int? parent, int? plans, CancellationToken cancellationToken)
    {
        long lastHello = 0;
        int ended = 0;
        while (!cancellationToken.IsCancellationRequested && (plans is null || ended < plans))
        {
            if (Stopwatch.GetElapsedTime(lastHello) >= WorkerMessage.HelloInterval)
            {
                Send(new WorkerMessage { Type = WorkerMessage.Hello, From = name, Host = Environment.MachineName, ProcessId = Environment.ProcessId, Version = WorkerMessage.ToolVersion, Busy = _planId });
                lastHello = Stopwatch.GetTimestamp();
                if (parent is { } pid && !IsAlive(pid))
                {
                    log.WriteLine($"kafkaperf worker {name}: the process that started it ({pid}) ended; so does the worker.");
                    return;
                }
            }
            if (_planId is not null && Stopwatch.GetElapsedTime(_coordinatorHeard) > _stall)
            {
                log.WriteLine($"kafkaperf worker {name}: the coordinator of plan {_planId} ({_coordinator}) said nothing for {_stall.TotalSeconds:0.#} s; the plan is given up and the worker waits again.");
                await EndPlanAsync();
            }
            var received = await Task.Run(() => bus.Receive(TimeSpan.FromMilliseconds(200)), CancellationToken.None);
            if (received is not { } r || WorkerMessage.Read(r.Value) is not { } message) continue;
            if (message.From == _coordinator) _coordinatorHeard = Stopwatch.GetTimestamp();
            switch (message.Type)
            {
                case WorkerMessage.PlanType when message.Workers?.Contains(name) == true:
                    if (_planId is not null) await EndPlanAsync();
                    BeginPlan(message);
                    break;
                case WorkerMessage.Prepare when message.Plan == _planId && _planId is not null && message.Workers is { } workers && Array.IndexOf(workers, name) is var index and >= 0:
                    BeginRun(message, index, workers.Length);
                    break;
                case WorkerMessage.Start when message.Plan == _planId && message.Sequence == _runSequence:
                    _start?.TrySetResult(message.StartAtUnixMs);
                    break;
                case WorkerMessage.End when message.Plan == _planId && _planId is not null:
                    ended++;
                    log.WriteLine($"kafkaperf worker {name}: plan {_planId} ended{(plans is null || ended < plans ? "; waiting for plans" : $"; that was plan {ended} of {plans}")}.");
                    await EndPlanAsync();
                    break;
            }
        }
    }

    private void BeginPlan(WorkerMessage message)
    {
        _planId = message.Plan;
        _coordinator = message.From;
        _coordinatorHeard = Stopwatch.GetTimestamp();
        _stall = TimeSpan.FromSeconds(message.StallSeconds > 0 ? message.StallSeconds : 30);
        _planCancel = new CancellationTokenSource();
        var planId = message.Plan;
        // Clients start now, before anything is timed (a JVM takes seconds); hellos go on meanwhile.
        _setup = Task.Run(async () =>
        {
            string? error = null;
            try
            {
                _plan = PlanDocument.Parse(message.PlanDocument ?? throw new PlanValidationException("the coordinator sent no plan"), $"plan {planId} from {message.From}");
                log.WriteLine($"kafkaperf worker {name}: plan {planId} from {message.From}: {string.Join(',', _plan.Clients)}, {_plan.TotalRuns} runs");
                _cells = [.. _plan.Cells()];
                var registry = await clientsFor(_plan.Clients, _planCancel.Token);
                _session = new BenchmarkSession(_plan, registry, BrokerSources.Connected(connection with { StallTimeout = _plan.StallTimeout, NetworkShapedByCoordinator = true }),
                    new SessionOptions { Log = new PrefixedWriter(log, $"kafkaperf worker {name}: ") });
                await _session.CreateShareClientsAsync(_planCancel.Token);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                error = ex.Message;
                log.WriteLine($"kafkaperf worker {name}: cannot run plan {planId}: {error}");
            }
            Send(new WorkerMessage { Type = WorkerMessage.Accepted, From = name, Plan = planId, Error = error });
        });
    }

    private void BeginRun(WorkerMessage message, int index, int count)
    {
        if (_run is { IsCompleted: false })
        {
            Send(new WorkerMessage { Type = WorkerMessage.Result, From = name, Plan = _planId, Sequence = message.Sequence, Error = $"still busy with run {_runSequence}" });
            return;
        }
        _runSequence = message.Sequence;
        var start = _start = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        var planId = _planId;
        var token = _planCancel!.Token;
        var stall = _stall;
        _run = Task.Run(async () =>
        {
            WorkerMessage result;
            try
            {
                if (_setup is { } setup) await setup;
                var plan = _plan ?? throw new InvalidOperationException("the plan could not be read");
                var session = _session ?? throw new InvalidOperationException("the plan's clients could not be created");
                var cell = WorkerShares.Of(_cells![message.Cell], index, count);
                var run = new RunDescriptor(message.Sequence, plan.TotalRuns, cell, message.Client!, message.Repetition, $"{message.Topic}.w{index}");
                Trace($"run {message.Sequence}: {message.Client}, share {index + 1} of {count}, topic {run.Topic}");
                double lateMs = 0;
                var measurement = await session.RunShareAsync(run, async ct =>
                {
                    Send(new WorkerMessage { Type = WorkerMessage.Ready, From = name, Plan = planId, Sequence = message.Sequence });
                    Trace($"run {message.Sequence}: topic created, ready");
                    long at = await start.Task.WaitAsync(stall, ct);
                    var wait = DateTimeOffset.FromUnixTimeMilliseconds(at) - DateTimeOffset.UtcNow;
                    if (wait > TimeSpan.Zero) await Task.Delay(wait, ct);
                    // Heard after the agreed moment (a slow bus or machine): the coordinator's merge counts the lateness.
                    else lateMs = -wait.TotalMilliseconds;
                    Trace($"run {message.Sequence}: started{(lateMs > 0 ? $" {lateMs:0} ms late" : string.Empty)}");
                }, token);
                Trace($"run {message.Sequence}: done{(measurement?.Error is { } e ? $" ({e})" : string.Empty)}");
                result = new WorkerMessage
                {
                    Type = WorkerMessage.Result, From = name, Plan = planId, Sequence = message.Sequence,
                    Measurement = measurement is null ? null : MeasurementWire.Serialize(measurement),
                    Info = session.DescribeShareClient(message.Client!),
                    Error = measurement is null ? "nothing was measured" : null,
                    StartedLateMs = lateMs,
                };
            }
            catch (OperationCanceledException) when (token.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                result = new WorkerMessage { Type = WorkerMessage.Result, From = name, Plan = planId, Sequence = message.Sequence, Error = $"{ex.GetType().Name}: {ex.Message}" };
            }
            Send(result);
            bus.Flush(TimeSpan.FromSeconds(5));
        }, CancellationToken.None);
    }

    private async Task EndPlanAsync()
    {
        _planCancel?.Cancel();
        foreach (var task in new[] { _setup, _run })
        {
            if (task is null) continue;
            await Task.WhenAny(task, Task.Delay(TimeSpan.FromSeconds(5)));
        }
        if (_session is not null) await _session.DisposeAsync();
        _planCancel?.Dispose();
        (_planId, _coordinator, _plan, _cells, _setup, _run, _planCancel, _start, _session) = (null, null, null, null, null, null, null, null, null);
    }

    /// <inheritdoc />
    public void Dispose() => _planCancel?.Dispose();

    /// <summary>Ends what is under way (Ctrl+C, SIGTERM, the parent gone).</summary>
    public async Task LeaveAsync()
    {
        if (_planId is not null) await EndPlanAsync();
        bus.Flush(TimeSpan.FromSeconds(2));
    }

    private void Send(WorkerMessage message) => bus.Send(name, message.ToBytes());

    /// <summary>A step of a run, with --verbose.</summary>
    private void Trace(string line)
    {
        if (verbose) log.WriteLine($"kafkaperf worker {name}: {line}");
    }

    private static bool IsAlive(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}
