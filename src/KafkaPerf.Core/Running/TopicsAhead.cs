using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Running;

/// <summary>
/// The topics of a cell's next runs, created together before the first of them and the cluster asked about them together,
/// instead of one topic, one wait for the cluster, before every run (0.26 s a run on the embedded broker, most of it the
/// readiness check's own clients starting). Each run still deletes its topic right after it; a topic whose run never came
/// (the plan cancelled, stopped or failed) is deleted when the cell ends. In a consume cell each client fills one topic,
/// in its first run, and its next runs read it (<see cref="FillFor"/>): that topic is deleted when the cell ends.
/// </summary>
/// <remarks>A topic created ahead is empty until its run, so it holds no disk; at most <see cref="MaxTopics"/> topics and
/// about <see cref="MaxPartitions"/> partitions exist ahead at once. Not for runs with faults (each waits for its cluster
/// after the one before, healing included) nor for runs on workers (they create their own).</remarks>
/// <param name="runs">Creates, asks about and deletes topics.</param>
/// <param name="plan">The plan.</param>
/// <param name="cellRuns">The cell's runs, in their order.</param>
/// <param name="fillsOnce">Whether a client (by name) fills one topic for its runs of the cell
/// (<see cref="FillsOnce(BenchmarkPlan, PlanCell)"/>): a client of a Kafka cluster, whose topics are logs any group reads
/// from the start; not a reference tool, whose runs are processes of their own, nor the in-memory client, whose topic is
/// a queue read once.</param>
internal sealed class TopicsAhead(RunExecutor runs, BenchmarkPlan plan, IReadOnlyList<RunDescriptor> cellRuns, Func<string, bool> fillsOnce)
{
    /// <summary>The most topics created ahead at once.</summary>
    internal const int MaxTopics = 16;

    /// <summary>Partitions created ahead at once, beyond the first topic of a batch.</summary>
    internal const int MaxPartitions = 256;

    // By topic: the run's client, and how creating the topic (and the cluster's readiness for it) went; a topic whose run
    // has taken it is no longer here.
    private readonly Dictionary<string, (IBenchClient Client, TopicOutcome? Outcome)> _ahead = new(StringComparer.Ordinal);

    // By client: the topic its runs read, filled by one of them; kept until the cell ends unless a run on it fails.
    private readonly Dictionary<string, (IBenchClient Client, TopicFill Fill)> _fills = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Whether a cell's consumes may read one topic per client: a burst by one producer and one consumer, whose
    /// topics are not kept (<c>--keep-topics</c> keeps one per run).</summary>
    internal static bool FillsOnce(BenchmarkPlan plan, PlanCell cell) =>
        cell.Scenario == ScenarioKind.Consume && !plan.KeepTopics
        && !LoadScenario.Applies(plan.LoadOf(cell), cell.Settings.Producers ?? 1, cell.Settings.Consumers ?? 1);

    /// <summary>Whether <paramref name="run"/> is expected to read a topic an earlier run of its client filled: not created
    /// ahead (it creates its own if that fill is gone).</summary>
    private bool ReadsAFill(RunDescriptor run) => fillsOnce(run.Client) && RunsOf(run.Client).First() != run;

    /// <summary>A client's runs of the cell, in their order.</summary>
    private IEnumerable<RunDescriptor> RunsOf(string client) =>
        cellRuns.Where(r => string.Equals(r.Client, client, StringComparison.OrdinalIgnoreCase));

    /// <summary>Creates the topics of the first runs of <paramref name="upcoming"/> (as many as <see cref="MaxTopics"/> and
    /// <see cref="MaxPartitions"/> allow, the first always), each with its run's client, all at once, then asks the cluster
    /// about every one created, all at once; each bounded by the stall timeout.</summary>
    /// <param name="upcoming">The cell's runs from the next one on, in their order, with their clients.</param>
    /// <param name="runToken">Ends the calls when the plan is cancelled or the broker is gone.</param>
    /// <exception cref="OperationCanceledException">The plan was cancelled; whatever was created is deleted by
    /// <see cref="DeleteUnusedAsync"/>.</exception>
    internal async ValueTask CreateAsync(IReadOnlyList<(RunDescriptor Run, IBenchClient Client)> upcoming, CancellationToken runToken)
    {
        var batch = new List<(RunDescriptor Run, IBenchClient Client)>();
        int partitions = 0;
        foreach (var next in upcoming)
        {
            if (batch.Count > 0 && ReadsAFill(next.Run)) continue;
            int more = plan.PartitionsOf(next.Run.Cell);
            if (batch.Count > 0 && (batch.Count == MaxTopics || partitions + more > MaxPartitions)) break;
            batch.Add(next);
            partitions += more;
        }
        // Listed before anything is asked, so that a cancellation midway still deletes every one of them.
        foreach (var (run, client) in batch) _ahead[run.Topic] = (client, null);
        // Started in the runs' order, so that the cluster is asked about the first run's topic first.
        var outcomes = batch.Select(b => CreateOneAsync(b.Run, b.Client, runToken)).ToList();
        await Task.WhenAll(outcomes);
        for (int i = 0; i < batch.Count; i++) _ahead[batch[i].Run.Topic] = (batch[i].Client, outcomes[i].Result);
    }

    /// <summary>Whether <paramref name="run"/> needs its own topic created: neither created ahead nor reading an earlier run's fill.</summary>
    internal bool NeedsTopic(RunDescriptor run) => !_ahead.ContainsKey(run.Topic) && !ReadsAFill(run);

    /// <summary>The fill a consume run reads or makes (<see cref="ScenarioContext.Fill"/>): the one an earlier run of its
    /// client kept, else a new one of its own topic; <see langword="null"/> when its client fills a topic per run.</summary>
    /// <param name="run">The run.</param>
    /// <param name="client">Its client, which deletes the topic when the cell ends.</param>
    internal TopicFill? FillFor(RunDescriptor run, IBenchClient client)
    {
        if (!fillsOnce(run.Client)) return null;
        if (_fills.TryGetValue(run.Client, out var kept) && kept.Fill.Acknowledged is not null) return kept.Fill;
        var fill = new TopicFill(run.Topic);
        _fills[run.Client] = (client, fill);
        return fill;
    }

    /// <summary>Forgets a client's fill, whose run failed: that run deletes its topic, and the client's next run fills one
    /// of its own.</summary>
    internal void Drop(string client) => _fills.Remove(client);

    /// <summary>How creating a run's topic went, for the run itself to start from; the topic is then the run's to delete.</summary>
    /// <returns>The outcome; <see langword="null"/> when the topic was not created ahead.</returns>
    internal TopicOutcome? Take(RunDescriptor run)
    {
        if (!_ahead.Remove(run.Topic, out var ahead)) return null;
        return ahead.Outcome;
    }

    /// <summary>The topics created ahead whose runs never came, and those of the fills kept, and forgets them.</summary>
    /// <returns>Their clients and names; a topic that existed before (not this plan's) is not among them.</returns>
    internal IReadOnlyList<(IBenchClient Client, string Topic)> TakeUnused()
    {
        var unused = _ahead.Where(a => a.Value.Outcome is not { Owned: false }).Select(a => (a.Value.Client, a.Key))
            .Concat(_fills.Values.Where(f => f.Fill.Acknowledged is not null).Select(f => (f.Client, f.Fill.Topic))).ToList();
        _ahead.Clear();
        _fills.Clear();
        return unused;
    }

    /// <summary>Deletes the topics created ahead whose runs never came, and those of the fills kept, all at once (briefly when the plan was cancelled).</summary>
    /// <param name="warnings">Where a topic that could not be deleted is said.</param>
    /// <param name="progress">Shows those warnings.</param>
    /// <param name="cancellationToken">The plan's cancellation: once cancelled, each deletion gets a moment only.</param>
    internal async ValueTask DeleteUnusedAsync(List<string> warnings, IBenchmarkProgress progress, CancellationToken cancellationToken)
    {
        var unused = TakeUnused();
        if (unused.Count == 0) return;
        await Task.WhenAll(unused.Select(u => runs.DeleteTopicAsync(u.Client, u.Topic, plan.StallTimeout, warnings, progress, cancellationToken).AsTask()));
    }

    private async Task<TopicOutcome> CreateOneAsync(RunDescriptor run, IBenchClient client, CancellationToken runToken)
    {
        var created = await runs.CreateTopicAsync(plan, run, client, runToken);
        if (created.Error is not null) return created;
        // The groups of the client's runs that will read this topic are asked about with it.
        var readers = fillsOnce(run.Client) && !ReadsAFill(run)
            ? RunsOf(run.Client).Where(r => r != run).Select(r => ScenarioContext.GroupOf(r.Topic)).ToList()
            : [];
        return await runs.ReadyAsync(plan, run, readsBack: false, runToken, readers) is { } notReady ? created with { Error = notReady } : created;
    }
}
