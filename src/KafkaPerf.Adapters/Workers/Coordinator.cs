using System.Collections.Concurrent;
using System.Diagnostics;
using System.Threading.Channels;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Workers;

/// <summary>A worker group did not join, or could not run the plan: one line, the plan does not start.</summary>
public sealed class WorkersUnavailableException : Exception
{
    /// <summary>Creates the exception.</summary>
    public WorkersUnavailableException()
    {
    }

    /// <summary>Creates the exception with its one line.</summary>
    /// <param name="message">What is missing and what to do.</param>
    public WorkersUnavailableException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with its one line and its cause.</summary>
    /// <param name="message">What is missing and what to do.</param>
    /// <param name="innerException">The cause.</param>
    public WorkersUnavailableException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}

/// <summary>
/// The <c>run</c> side of the worker protocol (<see cref="WorkerMessage"/>): waits for the workers, sends them the plan,
/// and runs every run on all of them together, merging what they measured. A worker that stops answering for the stall
/// timeout is reported by name, its share of that run is marked failed, and later runs go on with the others.
/// </summary>
internal sealed class Coordinator : IRemoteRuns, IAsyncDisposable
{
    /// <summary>How far ahead of now the coordinator sets a run's start at least: every worker hears it before then on a
    /// quiet machine. A worker that heard it late says by how much, and the next run's margin is twice the latest lateness
    /// more (<see cref="_startMargin"/>).</summary>
    public static readonly TimeSpan StartMargin = TimeSpan.FromMilliseconds(300);

    /// <summary>A worker heard within this long is there.</summary>
    private static readonly TimeSpan Present = TimeSpan.FromSeconds(3);

    private TimeSpan _startMargin = StartMargin;

    private readonly IWorkerTransport _bus;
    private readonly string _group;
    private readonly Action? _removeGroup;
    private readonly TextWriter? _log;
    private readonly string _id = $"coordinator/{Environment.MachineName}/{Environment.ProcessId}";
    private readonly string _planId = Guid.NewGuid().ToString("N")[..12];
    private readonly ConcurrentDictionary<string, WorkerMessage> _hellos = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, long> _heard = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, ClientInfo> _infos = new(StringComparer.OrdinalIgnoreCase);
    private readonly Channel<WorkerMessage> _replies = Channel.CreateUnbounded<WorkerMessage>();
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _reader;
    private readonly Task _alive;
    private List<string> _workers = [];
    private readonly HashSet<string> _gone = new(StringComparer.Ordinal);
    private TimeSpan _stall = TimeSpan.FromSeconds(30);
    private bool _planSent;
    private readonly List<double> _prepareMillis = [];
    private readonly List<double> _collectMillis = [];
    private long _resultBytes;
    private int _results;

    /// <summary>A coordinator on a group's transport.</summary>
    /// <param name="bus">The group's transport.</param>
    /// <param name="group">The group.</param>
    /// <param name="removeGroup">Removes the group's channel when the plan ends (a group the plan made for itself), or
    /// <see langword="null"/>.</param>
    /// <param name="log">Progress lines, or <see langword="null"/>.</param>
    internal Coordinator(IWorkerTransport bus, string group, Action? removeGroup, TextWriter? log)
    {
        _bus = bus;
        _group = group;
        _removeGroup = removeGroup;
        _log = log;
        _reader = Task.Factory.StartNew(Read, TaskCreationOptions.LongRunning);
        _alive = Task.Run(AliveAsync);
    }

    /// <summary>The group.</summary>
    public string Group => _group;

    /// <summary>The workers of the plan, in share order.</summary>
    public IReadOnlyList<string> Workers => _workers;

    /// <summary>How long from <see cref="JoinAsync"/>'s call until every worker had accepted the plan.</summary>
    public TimeSpan JoinTime { get; private set; }

    /// <summary>Opens the group's topic on the cluster.</summary>
    public static Coordinator Open(string bootstrap, Clients.KafkaSecurity security, string group, bool ownsTopic, TextWriter? log)
    {
        var bus = WorkerBus.Open(bootstrap, security, group, TimeSpan.FromSeconds(15));
        return new(bus, group, ownsTopic ? () => bus.DeleteTopic(TimeSpan.FromSeconds(5)) : null, log);
    }

    private void Read()
    {
        while (!_stop.IsCancellationRequested)
        {
            if (_bus.Receive(TimeSpan.FromMilliseconds(200)) is not { } received || WorkerMessage.Read(received.Value) is not { } message) continue;
            if (message.From == _id) continue;
            _heard[message.From] = Stopwatch.GetTimestamp();
            if (message.Type == WorkerMessage.Hello) _hellos[message.From] = message;
            else if (message.Plan == _planId && message.Type is WorkerMessage.Accepted or WorkerMessage.Ready or WorkerMessage.Result)
                _replies.Writer.TryWrite(message);
        }
    }

    private async Task AliveAsync()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                if (_planSent) Send(new WorkerMessage { Type = WorkerMessage.Alive, From = _id, Plan = _planId });
                await Task.Delay(WorkerMessage.HelloInterval, _stop.Token);
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void Send(WorkerMessage message) => _bus.Send(_id, message.ToBytes());

    private bool IsPresent(string worker) => _heard.TryGetValue(worker, out var at) && Stopwatch.GetElapsedTime(at) < Present;

    private bool IsSilent(string worker) => !_heard.TryGetValue(worker, out var at) || Stopwatch.GetElapsedTime(at) > _stall;

    /// <summary>Waits for <paramref name="expect"/> idle workers, sends them the plan and waits until each has its clients.</summary>
    /// <param name="plan">The plan as a document (<see cref="Plans.PlanDocument"/>).</param>
    /// <param name="expect">Workers to run the plan.</param>
    /// <param name="joinTimeout">How long the workers may take to join and start their clients.</param>
    /// <param name="stall">How long a silent party is waited for during the plan.</param>
    /// <param name="cancellationToken">Stops the wait.</param>
    /// <exception cref="WorkersUnavailableException">Too few workers joined, or one cannot run the plan.</exception>
    public async Task JoinAsync(string plan, int expect, TimeSpan joinTimeout, TimeSpan stall, CancellationToken cancellationToken)
    {
        _stall = stall;
        long began = Stopwatch.GetTimestamp();
        long lastSaid = 0;
        List<string> idle;
        while (true)
        {
            idle = [.. _hellos.Values.Where(h => h.Busy is null && IsPresent(h.From)).Select(h => h.From).Order(StringComparer.Ordinal)];
            if (idle.Count >= expect) break;
            if (Stopwatch.GetElapsedTime(began) > joinTimeout)
            {
                var busy = _hellos.Values.Count(h => h.Busy is not null && IsPresent(h.From));
                throw new WorkersUnavailableException(
                    $"{idle.Count} of the {expect} workers expected joined group '{_group}' within {joinTimeout.TotalSeconds:0.#} s{(busy > 0 ? $" ({busy} more are busy with another plan)" : string.Empty)}: start more with 'dotnet kafkaperf worker --group {_group} --bootstrap …', lower --expect, or wait longer with --join-timeout.");
            }
            if (_log is not null && Stopwatch.GetElapsedTime(lastSaid) > TimeSpan.FromSeconds(5))
            {
                _log.WriteLine($"kafkaperf: waiting for workers in group '{_group}': {idle.Count} of {expect} joined.");
                lastSaid = Stopwatch.GetTimestamp();
            }
            await Task.Delay(100, cancellationToken);
        }
        _workers = [.. idle.Take(expect)];
        Send(new WorkerMessage { Type = WorkerMessage.PlanType, From = _id, Plan = _planId, PlanDocument = plan, Workers = [.. _workers], StallSeconds = stall.TotalSeconds });
        _planSent = true;
        var waiting = new HashSet<string>(_workers, StringComparer.Ordinal);
        var problems = new List<string>();
        while (waiting.Count > 0)
        {
            var left = joinTimeout - Stopwatch.GetElapsedTime(began);
            if (left <= TimeSpan.Zero)
                throw new WorkersUnavailableException($"worker(s) {string.Join(", ", waiting)} did not start the plan's clients within {joinTimeout.TotalSeconds:0.#} s (--join-timeout).");
            if (waiting.FirstOrDefault(IsSilent) is { } silent)
                throw new WorkersUnavailableException($"worker {Describe(silent)} stopped answering while it started the plan's clients.");
            var reply = await NextAsync(left < TimeSpan.FromMilliseconds(200) ? left : TimeSpan.FromMilliseconds(200), cancellationToken);
            if (reply is not { Type: WorkerMessage.Accepted } accepted || !waiting.Remove(accepted.From)) continue;
            if (accepted.Error is { } error) problems.Add($"worker {Describe(accepted.From)} cannot run the plan: {error}");
        }
        if (problems.Count > 0) throw new WorkersUnavailableException(string.Join("; ", problems));
        JoinTime = Stopwatch.GetElapsedTime(began);
        _log?.WriteLine($"kafkaperf: {_workers.Count} worker(s) of group '{_group}' run the plan: {string.Join(", ", _workers.Select(Describe))} (ready in {JoinTime.TotalSeconds:0.0} s).");
    }

    private async Task<WorkerMessage?> NextAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        wait.CancelAfter(timeout);
        try
        {
            return await _replies.Reader.ReadAsync(wait.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return null;
        }
    }

    private string Describe(string worker) =>
        _hellos.TryGetValue(worker, out var hello) && hello.Host is { } host && !worker.StartsWith(host + "/", StringComparison.Ordinal)
            ? $"{worker} ({host}, process {hello.ProcessId})" : worker;

    ClientInfo? IRemoteRuns.Describe(string client) => _infos.GetValueOrDefault(client);

    /// <inheritdoc />
    public async Task<RunRecord> RunAsync(BenchmarkPlan plan, RunDescriptor run, CancellationToken cancellationToken)
    {
        var cells = plan.Cells().ToList();
        int cell = cells.FindIndex(c => c.Equals(run.Cell));
        var participants = _workers.Where(w => !_gone.Contains(w)).ToArray();
        if (participants.Length == 0) throw new WorkersUnavailableException("no worker of the plan is left");
        var outcomes = new WorkerPart?[participants.Length];
        var shares = participants.Select((_, i) => WorkerShares.Of(run.Cell, i, participants.Length)).ToArray();
        // Replies of earlier runs that came late are dropped.
        while (_replies.Reader.TryRead(out _))
        {
        }
        Send(new WorkerMessage
        {
            Type = WorkerMessage.Prepare, From = _id, Plan = _planId, Sequence = run.Sequence, Cell = cell, Client = run.Client,
            Repetition = run.Repetition, Topic = run.Topic, Workers = participants,
        });
        var ready = new HashSet<string>(StringComparer.Ordinal);
        bool started = false;
        long prepared = Stopwatch.GetTimestamp(), startedAt = 0;
        while (outcomes.Any(o => o is null))
        {
            for (int i = 0; i < participants.Length; i++)
            {
                if (outcomes[i] is null && IsSilent(participants[i]))
                {
                    var worker = participants[i];
                    _gone.Add(worker);
                    var error = $"stopped answering {(started ? "during" : "before")} run {run.Sequence} (nothing heard for {_stall.TotalSeconds:0.#} s); its share is marked failed and the plan goes on without it";
                    _log?.WriteLine($"kafkaperf: worker {Describe(worker)} {error}.");
                    outcomes[i] = Outcome(participants[i], i, shares[i], null, error);
                }
            }
            if (!started && participants.Where((w, i) => outcomes[i] is null).All(ready.Contains))
            {
                // Everyone has its topic: the run starts for all at once, a moment from now.
                Send(new WorkerMessage { Type = WorkerMessage.Start, From = _id, Plan = _planId, Sequence = run.Sequence, StartAtUnixMs = (DateTimeOffset.UtcNow + _startMargin).ToUnixTimeMilliseconds() });
                started = true;
                startedAt = Stopwatch.GetTimestamp();
                _prepareMillis.Add(Stopwatch.GetElapsedTime(prepared).TotalMilliseconds);
            }
            var reply = await NextAsync(TimeSpan.FromMilliseconds(200), cancellationToken);
            if (reply is null || reply.Sequence != run.Sequence || Array.IndexOf(participants, reply.From) is not (>= 0 and var index)) continue;
            if (reply.Type == WorkerMessage.Ready) ready.Add(reply.From);
            else if (reply.Type == WorkerMessage.Result && outcomes[index] is null)
            {
                ready.Add(reply.From);
                RunRecord? measurement = null;
                string? error = reply.Error;
                if (reply.Measurement is { } bytes)
                {
                    _resultBytes += bytes.Length;
                    _results++;
                    try
                    {
                        measurement = MeasurementWire.Deserialize(bytes);
                    }
                    catch (System.Text.Json.JsonException ex)
                    {
                        error = $"its results could not be read: {ex.Message}";
                    }
                }
                if (reply.Info is { } info) _infos.TryAdd(run.Client, info);
                outcomes[index] = Outcome(reply.From, index, shares[index], measurement, measurement is null ? error ?? "it sent no measurement" : null)
                    with { StartedLateSeconds = reply.StartedLateMs / 1000 };
                // A margin a worker missed grows, so that the next run starts together.
                if (reply.StartedLateMs > 0) _startMargin = TimeSpan.FromMilliseconds(Math.Max(_startMargin.TotalMilliseconds, StartMargin.TotalMilliseconds + (2 * reply.StartedLateMs)));
            }
        }
        var merged = MeasurementMerge.Merge([.. outcomes.Select(o => o!)]);
        // What the protocol added after the run: from the agreed start plus the slowest worker's own run to its last result.
        if (startedAt != 0 && double.IsFinite(merged.ElapsedSeconds))
            _collectMillis.Add((Stopwatch.GetElapsedTime(startedAt) - _startMargin).TotalMilliseconds - (merged.ElapsedSeconds + (merged.WarmupRecords > 0 && merged.OfferedRate is > 0 ? merged.WarmupRecords / merged.OfferedRate.Value : 0)) * 1000);
        return merged;
    }

    /// <summary>What coordination cost, for the last line of the plan: the join, and per run the preparation (every
    /// worker's topic created) and the collection of the results after the slowest worker's run ended.</summary>
    public string? Overhead()
    {
        if (_prepareMillis.Count == 0) return null;
        static double Median(List<double> values)
        {
            var sorted = values.Order().ToList();
            return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
        }
        return $"workers: all {_workers.Count} ready {JoinTime.TotalSeconds:0.0} s after the plan began waiting for them (joined, plan read, clients created); per run, median {Median(_prepareMillis):0} ms from prepare to every worker ready "
            + $"(topics created), then a {StartMargin.TotalMilliseconds:0} ms start margin (at the end {_startMargin.TotalMilliseconds:0} ms), and median {(_collectMillis.Count > 0 ? Median(_collectMillis) : double.NaN):0} ms "
            + $"from the slowest worker's end to its results; {(_results > 0 ? _resultBytes / 1024.0 / _results : 0):0.0} KB of results per worker and run";
    }

    private WorkerPart Outcome(string worker, int index, PlanCell share, RunRecord? measurement, string? error)
    {
        var hello = _hellos.GetValueOrDefault(worker);
        return new WorkerPart
        {
            Worker = worker, Index = index, Host = hello?.Host, ProcessId = hello?.ProcessId, Version = hello?.Version,
            Records = share.MessageCount, Producers = share.Settings.Producers ?? 1, Run = measurement, Error = error,
        };
    }

    /// <summary>Sends the workers back to waiting and leaves the group's topic (deleting it when the group was this run's own).</summary>
    public async ValueTask DisposeAsync()
    {
        if (_planSent) Send(new WorkerMessage { Type = WorkerMessage.End, From = _id, Plan = _planId });
        _bus.Flush(TimeSpan.FromSeconds(2));
        _stop.Cancel();
        await Task.WhenAny(Task.WhenAll(_reader, _alive), Task.Delay(TimeSpan.FromSeconds(2)));
        _removeGroup?.Invoke();
        _bus.Dispose();
        _stop.Dispose();
    }
}
