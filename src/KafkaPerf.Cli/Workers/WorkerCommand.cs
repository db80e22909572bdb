using System.CommandLine;
using System.Diagnostics;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Cli.Commands;
using KafkaPerf.Clients;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli.Workers;

/// <summary>
/// <c>worker</c>: joins a worker group on a cluster and runs its share of the runs that a <c>run --workers GROUP</c>
/// (or <c>--processes</c>) anywhere sends it, until Ctrl+C or SIGTERM. Between plans it waits; a coordinator that goes
/// silent for the plan's stall timeout is given up on, and the worker waits again.
/// </summary>
internal sealed class WorkerCommand(ClientRegistry registry, Shutdown shutdown)
{
    /// <summary>How often a worker says it is there.</summary>
    public static readonly TimeSpan HelloInterval = TimeSpan.FromSeconds(1);

    private static readonly Option<string> Group = new("--group") { Description = "The worker group to join (letters, digits, '.', '_', '-'); a run names it with --workers.", Required = true };
    private static readonly Option<string> Bootstrap = new("--bootstrap") { Description = "The Kafka cluster (host:port,…): the workers' meeting place and the cluster the runs load.", Required = true };
    private static readonly Option<string?> Name = new("--name") { Description = "This worker's name in results (default host/process ID); unique in the group." };
    private static readonly Option<int?> Plans = new("--plans") { Description = "End after this many plans (a Kubernetes Job's worker: --plans 1); default: run until stopped." };
    private static readonly Option<int?> Parent = new("--parent") { Description = "End when the process with this ID ends (the tool's own local workers).", Hidden = true };

    public Command Build()
    {
        var command = new Command("worker", "Join a worker group on a cluster and run shares of the plans a 'run --workers GROUP' sends, until Ctrl+C.")
        {
            Group, Bootstrap, Name, Plans, Parent,
        };
        foreach (var option in SecurityOptions.All) command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, shutdown.Token));
        return command;
    }

    private async Task<int> ExecuteAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        var group = parse.GetValue(Group)!;
        var bootstrap = parse.GetValue(Bootstrap)!;
        KafkaSecurity security;
        try
        {
            if (WorkerBus.CheckGroupName(group) is { } bad) throw new PlanValidationException($"{bad}: e.g. --group bench-1.");
            if (!Commands.BrokerOptions.IsBootstrapList(bootstrap))
                throw new PlanValidationException($"--bootstrap '{bootstrap}' is not host:port[,host:port…]: give the address of a broker of the cluster the workers meet on, e.g. --bootstrap localhost:9092.");
            if (parse.GetValue(Plans) is < 1) throw new PlanValidationException($"--plans {parse.GetValue(Plans)} is out of range: give 1 or more, or leave it out to run until stopped.");
            security = SecurityOptions.Read(parse, embedded: false);
        }
        catch (PlanValidationException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        var name = parse.GetValue(Name) ?? $"{Environment.MachineName}/{Environment.ProcessId}";
        int? parent = parse.GetValue(Parent);
        WorkerBus bus;
        try
        {
            bus = await Task.Run(() => WorkerBus.Open(bootstrap, security, group, TimeSpan.FromSeconds(15)), cancellationToken);
        }
        catch (OperationCanceledException)
        {
            return ExitCodes.Cancelled;
        }
        catch (Exception ex) when (ex is TimeoutException or Confluent.Kafka.KafkaException or PrerequisiteException)
        {
            return CliErrors.Fail(ExitCodes.BrokerFailed, $"worker {name} cannot join group '{group}' on {bootstrap}: {ex.Message}", ex);
        }
        using (bus)
        {
            Console.Error.WriteLine($"kafkaperf worker {name}: joined group '{group}' on {bootstrap} ({WorkerMessage.ToolVersion}); waiting for plans (Ctrl+C ends it).");
            using var worker = new Worker(registry, bus, name, new ClientConnection(bootstrap) { Security = security, BrokerName = "the Kafka cluster" });
            try
            {
                await worker.RunAsync(parent, parse.GetValue(Plans), cancellationToken);
            }
            finally
            {
                await worker.LeaveAsync();
            }
        }
        Console.Error.WriteLine($"kafkaperf worker {name}: stopped.");
        return ExitCodes.Success;
    }

    /// <summary>The worker's state: the plan it is in, its clients, the run it is running.</summary>
    private sealed class Worker(ClientRegistry registry, WorkerBus bus, string name, ClientConnection connection) : IDisposable
    {
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

        public async Task RunAsync(int? parent, int? plans, CancellationToken cancellationToken)
        {
            long lastHello = 0;
            int ended = 0;
            while (!cancellationToken.IsCancellationRequested && (plans is null || ended < plans))
            {
                if (Stopwatch.GetElapsedTime(lastHello) >= HelloInterval)
                {
                    Send(new WorkerMessage { Type = WorkerMessage.Hello, From = name, Host = Environment.MachineName, ProcessId = Environment.ProcessId, Version = WorkerMessage.ToolVersion, Busy = _planId });
                    lastHello = Stopwatch.GetTimestamp();
                    if (parent is { } pid && !IsAlive(pid))
                    {
                        Console.Error.WriteLine($"kafkaperf worker {name}: the process that started it ({pid}) ended; so does the worker.");
                        return;
                    }
                }
                if (_planId is not null && Stopwatch.GetElapsedTime(_coordinatorHeard) > _stall)
                {
                    Console.Error.WriteLine($"kafkaperf worker {name}: the coordinator of plan {_planId} ({_coordinator}) said nothing for {_stall.TotalSeconds:0.#} s; the plan is given up and the worker waits again.");
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
                        Console.Error.WriteLine($"kafkaperf worker {name}: plan {_planId} ended{(plans is null || ended < plans ? "; waiting for plans" : $"; that was plan {ended} of {plans}")}.");
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
                    Console.Error.WriteLine($"kafkaperf worker {name}: plan {planId} from {message.From}: {string.Join(',', _plan.Clients)}, {_plan.TotalRuns} runs");
                    _cells = [.. _plan.Cells()];
                    _session = new BenchmarkSession(_plan, registry, BrokerSources.Connected(connection with { StallTimeout = _plan.StallTimeout }),
                        new SessionOptions { Log = new PrefixedWriter(Console.Error, $"kafkaperf worker {name}: ") });
                    await _session.CreateShareClientsAsync(_planCancel.Token);
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    error = ex.Message;
                    Console.Error.WriteLine($"kafkaperf worker {name}: cannot run plan {planId}: {error}");
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
                    var measurement = await session.RunShareAsync(run, async ct =>
                    {
                        Send(new WorkerMessage { Type = WorkerMessage.Ready, From = name, Plan = planId, Sequence = message.Sequence });
                        Trace($"run {message.Sequence}: topic created, ready");
                        long at = await start.Task.WaitAsync(stall, ct);
                        var wait = DateTimeOffset.FromUnixTimeMilliseconds(at) - DateTimeOffset.UtcNow;
                        if (wait > TimeSpan.Zero) await Task.Delay(wait, ct);
                        Trace($"run {message.Sequence}: started");
                    }, token);
                    Trace($"run {message.Sequence}: done{(measurement?.Error is { } e ? $" ({e})" : string.Empty)}");
                    result = new WorkerMessage
                    {
                        Type = WorkerMessage.Result, From = name, Plan = planId, Sequence = message.Sequence,
                        Measurement = measurement is null ? null : MeasurementWire.Serialize(measurement),
                        Info = session.DescribeShareClient(message.Client!),
                        Error = measurement is null ? "nothing was measured" : null,
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
            if (CliErrors.Verbose) Console.Error.WriteLine($"kafkaperf worker {name}: {line}");
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
}
