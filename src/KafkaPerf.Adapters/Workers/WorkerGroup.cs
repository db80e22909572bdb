using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// The workers a plan runs on: a coordinator on the cluster, and the worker processes the tool started for
/// <c>--processes</c>. Disposing it sends the workers back to waiting, then ends the tool's own processes.
/// </summary>
public sealed class WorkerGroup : IRemoteRuns, IAsyncDisposable
{
    private readonly Coordinator _coordinator;
    private readonly LocalWorkers? _processes;
    private readonly TextWriter? _log;

    private WorkerGroup(Coordinator coordinator, LocalWorkers? processes, TextWriter? log)
    {
        _coordinator = coordinator;
        _processes = processes;
        _log = log;
    }

    /// <summary>Opens the coordinator, starts the tool's own workers when asked, and waits until the plan's workers have
    /// read it and created their clients.</summary>
    /// <param name="connection">The cluster the workers meet on and load.</param>
    /// <param name="plan">The plan, sent as a document.</param>
    /// <param name="group">A group of workers started by hand; <see langword="null"/> for <paramref name="processes"/> of the tool's.</param>
    /// <param name="expect">How many workers of the group run the plan.</param>
    /// <param name="processes">How many worker processes to start; <see langword="null"/> for a group.</param>
    /// <param name="workerCommand">How to start one: the tool's <c>worker</c> command with its own options, to which
    /// <c>--group … --bootstrap …</c> is added; needed with <paramref name="processes"/>.</param>
    /// <param name="joinTimeout">How long to wait for them.</param>
    /// <param name="log">Progress lines, or <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the wait.</param>
    /// <returns>The group, ready.</returns>
    public static async Task<WorkerGroup> JoinAsync(ClusterConnection connection, BenchmarkPlan plan, string? group, int expect, int? processes,
        IReadOnlyList<string>? workerCommand, TimeSpan joinTimeout, TextWriter? log, CancellationToken cancellationToken)
    {
        var name = group ?? $"local-{Environment.ProcessId}-{Guid.NewGuid():N}"[..24];
        var coordinator = await Task.Run(() => Coordinator.Open(connection.BootstrapServers!, connection.Security, name, ownsTopic: group is null, log), cancellationToken);
        LocalWorkers? started = null;
        try
        {
            if (processes is { } count)
                started = LocalWorkers.Start(count, workerCommand ?? throw new ArgumentNullException(nameof(workerCommand)), connection.BootstrapServers!, connection.Security, name, log);
            await coordinator.JoinAsync(PlanDocument.ToJson(plan), processes ?? expect, joinTimeout, plan.StallTimeout, cancellationToken);
            return new WorkerGroup(coordinator, started, log);
        }
        catch
        {
            await coordinator.DisposeAsync();
            started?.Dispose();
            throw;
        }
    }

    /// <inheritdoc />
    public Task<RunRecord> RunAsync(BenchmarkPlan plan, RunDescriptor run, CancellationToken cancellationToken) => _coordinator.RunAsync(plan, run, cancellationToken);

    /// <inheritdoc />
    public ClientInfo? Describe(string client) => ((IRemoteRuns)_coordinator).Describe(client);

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_coordinator.Overhead() is { } overhead) _log?.WriteLine($"kafkaperf: {overhead}.");
        await _coordinator.DisposeAsync();
        _processes?.Dispose();
    }
}
