using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Running.Faults;

/// <summary>
/// Fires a run's faults at their times (counted from the start of its measured part, which the scenario announces
/// through <see cref="FaultWatch.Started"/>), undoes restarts and pauses, and watches the cluster for the partition's
/// next leader. Runs beside the scenario, on the thread pool: nothing of it is on a sending thread.
/// </summary>
internal sealed class FaultDriver
{
    /// <summary>How often the cluster is asked for the partition's leader after a fault.</summary>
    internal static readonly TimeSpan LeaderPoll = TimeSpan.FromMilliseconds(50);

    private readonly IFaultInjector _injector;
    private readonly FaultWatch _watch;
    private readonly string _topic;
    private readonly TimeSpan _electionLimit;

    /// <param name="injector">The cluster's faults.</param>
    /// <param name="watch">The run's records, and when it started.</param>
    /// <param name="topic">The run's topic.</param>
    /// <param name="electionLimit">How long a new leader is waited for after a fault.</param>
    internal FaultDriver(IFaultInjector injector, FaultWatch watch, string topic, TimeSpan electionLimit)
    {
        _injector = injector;
        _watch = watch;
        _topic = topic;
        _electionLimit = electionLimit;
    }

    /// <summary>Fires every fault and completes once each one is done: fired, undone, its election seen (or not within the
    /// limit, or <paramref name="stopWatching"/> cancelled).</summary>
    /// <param name="faults">The faults.</param>
    /// <param name="scenarioOver">Cancelled once the scenario has ended: a fault not fired by then never fires (a run
    /// that failed before its schedule started never announces it).</param>
    /// <param name="stopWatching">Cancelled when the run has ended and no more leader changes matter to it.</param>
    /// <param name="cancellationToken">The run's token.</param>
    /// <returns>One outcome per fault, in their order.</returns>
    internal async Task<IReadOnlyList<FaultOutcome>> RunAsync(IReadOnlyList<FaultSpec> faults, CancellationToken scenarioOver, CancellationToken stopWatching,
        CancellationToken cancellationToken) =>
        await Task.WhenAll(faults.Select(f => RunOneAsync(f, scenarioOver, stopWatching, cancellationToken)));

    private async Task<FaultOutcome> RunOneAsync(FaultSpec fault, CancellationToken scenarioOver, CancellationToken stopWatching, CancellationToken cancellationToken)
    {
        var outcome = new FaultOutcome(fault);
        long measuredStart;
        try
        {
            using var beforeFiring = CancellationTokenSource.CreateLinkedTokenSource(scenarioOver, cancellationToken);
            (_, measuredStart) = await _watch.Started.WaitAsync(beforeFiring.Token);
            await DelayUntilAsync(measuredStart + Ticks(fault.At), beforeFiring.Token);
        }
        catch (OperationCanceledException) when (scenarioOver.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            outcome.Error = "the run ended before the fault's time";
            return outcome;
        }
        try
        {
            outcome.Before = await PartitionOrNullAsync(cancellationToken);
            var fired = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var fire = _injector.FireAsync(fault, _topic, () =>
            {
                outcome.FiredAt = _watch.Clock.GetTimestamp();
                fired.TrySetResult();
            }, cancellationToken);
            await Task.WhenAny(fire, fired.Task);
            Task election = Task.CompletedTask;
            if (fired.Task.IsCompleted) election = WatchElectionAsync(outcome, stopWatching, cancellationToken);
            try
            {
                outcome.Action = await fire;
            }
            catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
            {
                outcome.Error = ex.Message;
            }
            if (outcome.Action is not null && fault.BackAt is { } back)
            {
                await DelayUntilAsync(measuredStart + Ticks(back), cancellationToken);
                try
                {
                    await _injector.EndAsync(outcome.Action, cancellationToken);
                    outcome.BackAt = _watch.Clock.GetTimestamp();
                }
                catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
                {
                    outcome.Error = $"undoing it failed: {ex.Message}";
                }
            }
            await election;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            outcome.Error ??= outcome.FiredAt == 0 ? "the run ended before the fault's time" : null;
        }
        return outcome;
    }

    /// <summary>Asks the cluster for the partition's leader and in-sync replicas every <see cref="LeaderPoll"/> until it
    /// names another leader than before the fault and other in-sync replicas (a follower's loss shrinks them without an
    /// election; with <c>acks=all</c> the leader waits for it until then).</summary>
    private async Task WatchElectionAsync(FaultOutcome outcome, CancellationToken stopWatching, CancellationToken cancellationToken)
    {
        if (outcome.Before is not { } before) return;
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(stopWatching, cancellationToken);
        limit.CancelAfter(_electionLimit);
        try
        {
            while (outcome.ElectedAt == 0 || outcome.InSyncChangedAt == 0)
            {
                var state = await PartitionOrNullAsync(limit.Token);
                long now = _watch.Clock.GetTimestamp();
                if (state is not null && outcome.ElectedAt == 0 && state.Leader >= 0 && state.Leader != before.Leader)
                {
                    outcome.NewLeader = state.Leader;
                    outcome.ElectedAt = now;
                }
                if (state is not null && outcome.InSyncChangedAt == 0 && state.InSyncText != before.InSyncText)
                {
                    outcome.InSyncAfter = state.InSyncText;
                    outcome.InSyncChangedAt = now;
                }
                await Task.Delay(LeaderPoll, limit.Token);
            }
        }
        catch (OperationCanceledException) when (limit.IsCancellationRequested)
        {
            // No other leader within the limit, or the run is over: said as "none seen".
        }
    }

    private async Task<PartitionState?> PartitionOrNullAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await _injector.PartitionAsync(_topic, cancellationToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return null;
        }
    }

    private long Ticks(TimeSpan time) => (long)(time.TotalSeconds * _watch.Clock.Frequency);

    private async Task DelayUntilAsync(long due, CancellationToken cancellationToken)
    {
        while (true)
        {
            long left = due - _watch.Clock.GetTimestamp();
            if (left <= 0) return;
            double ms = (double)left * 1000 / _watch.Clock.Frequency;
            // The timer is coarse: the last milliseconds are waited in short steps.
            if (ms > 20) await Task.Delay(TimeSpan.FromMilliseconds(ms - 15), cancellationToken);
            else await Task.Delay(1, cancellationToken);
        }
    }
}

/// <summary>What happened to one fault of a run, in clock times (0 when it did not happen).</summary>
internal sealed class FaultOutcome(FaultSpec fault)
{
    public FaultSpec Fault { get; } = fault;

    public FaultAction? Action { get; set; }

    public string? Error { get; set; }

    public long FiredAt { get; set; }

    public long BackAt { get; set; }

    public PartitionState? Before { get; set; }

    public int? NewLeader { get; set; }

    public long ElectedAt { get; set; }

    public string? InSyncAfter { get; set; }

    public long InSyncChangedAt { get; set; }
}
