using System.CommandLine;
using System.Diagnostics;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Cli.Commands;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli.Commands;

/// <summary>
/// <c>worker</c>: joins a worker group on a cluster and runs its share of the runs that a <c>run --workers GROUP</c>
/// (or <c>--processes</c>) anywhere sends it, until Ctrl+C or SIGTERM. Between plans it waits; a coordinator that goes
/// silent for the plan's stall timeout is given up on, and the worker waits again.
/// </summary>
internal sealed class WorkerCommand(ClientCatalog catalog, Shutdown shutdown)
{
    private static readonly Option<string> Group = new("--group") { Description = "The worker group to join (letters, digits, '.', '_', '-'); a run names it with --workers.", Required = true };
    private static readonly Option<string> Bootstrap = new("--bootstrap") { Description = "The Kafka cluster (host:port,…): the workers' meeting place and the cluster the runs load.", Required = true };
    private static readonly Option<string?> Name = new("--name") { Description = "This worker's name in results (default host/process ID); unique in the group." };
    private static readonly Option<int?> Plans = new("--plans") { Description = "End after this many plans (a Kubernetes Job's worker: --plans 1); default: run until stopped." };
    private static readonly Option<string?> ConnectTimeout = new("--connect-timeout") { Description = "How long to keep trying to reach the cluster before giving up: a worker may start before its broker (default 120s)." };
    private static readonly Option<int?> Parent = new("--parent") { Description = "End when the process with this ID ends (the tool's own local workers).", Hidden = true };

    public Command Build()
    {
        var command = new Command("worker", "Join a worker group on a cluster and run shares of the plans a 'run --workers GROUP' sends, until Ctrl+C.")
        {
            Group, Bootstrap, Name, Plans, ConnectTimeout, Parent, ClientCatalog.Plugin,
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
        ClientRegistry registry;
        TimeSpan connectTimeout;
        try
        {
            if (WorkerBus.CheckGroupName(group) is { } bad) throw new PlanValidationException($"{bad}: e.g. --group bench-1.");
            if (!BrokerOptions.IsBootstrapList(bootstrap))
                throw new PlanValidationException($"--bootstrap '{bootstrap}' is not host:port[,host:port…]: give the address of a broker of the cluster the workers meet on, e.g. --bootstrap localhost:9092.");
            connectTimeout = parse.GetValue(ConnectTimeout) is { } text ? LoadOptions.Duration(text, "--connect-timeout") : TimeSpan.FromSeconds(120);
            if (connectTimeout <= TimeSpan.Zero) throw new PlanValidationException($"--connect-timeout {parse.GetValue(ConnectTimeout)} is not positive: give a length such as 120s.");
            if (parse.GetValue(Plans) is < 1) throw new PlanValidationException($"--plans {parse.GetValue(Plans)} is out of range: give 1 or more, or leave it out to run until stopped.");
            security = SecurityOptions.Read(parse, embedded: false);
            // The plugins are loaded now: one that cannot be is said before the worker joins.
            registry = catalog.WithPlugins(ClientCatalog.PluginPaths(parse));
        }
        catch (PlanValidationException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (PluginException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        var name = parse.GetValue(Name) ?? $"{Environment.MachineName}/{Environment.ProcessId}";
        int? parent = parse.GetValue(Parent);
        WorkerBus bus;
        var began = Stopwatch.GetTimestamp();
        while (true)
        {
            try
            {
                bus = await Task.Run(() => WorkerBus.Open(bootstrap, security, group, TimeSpan.FromSeconds(15)), cancellationToken);
                break;
            }
            catch (OperationCanceledException)
            {
                return ExitCodes.Cancelled;
            }
            catch (PrerequisiteException ex)
            {
                return CliErrors.Fail(ExitCodes.BrokerFailed, $"worker {name} cannot join group '{group}' on {bootstrap}: {ex.Message}", ex);
            }
            catch (Exception ex) when (ex is TimeoutException or Confluent.Kafka.KafkaException)
            {
                // A worker started beside its broker (a Compose file, a Kubernetes Job) may come first: it tries again
                // until --connect-timeout, saying why each time.
                var left = connectTimeout - Stopwatch.GetElapsedTime(began);
                if (left <= TimeSpan.Zero)
                    return CliErrors.Fail(ExitCodes.BrokerFailed, $"worker {name} cannot join group '{group}' on {bootstrap} within {connectTimeout.TotalSeconds:0.#} s (--connect-timeout): {ex.Message}", ex);
                Console.Error.WriteLine($"kafkaperf worker {name}: the cluster at {bootstrap} is not ready ({ex.Message}); trying again, for {left.TotalSeconds:0} s more.");
                try
                {
                    await Task.Delay(TimeSpan.FromSeconds(2), cancellationToken);
                }
                catch (OperationCanceledException)
                {
                    return ExitCodes.Cancelled;
                }
            }
        }
        using (bus)
        {
            Console.Error.WriteLine($"kafkaperf worker {name}: joined group '{group}' on {bootstrap} ({WorkerLoop.ToolVersion}); waiting for plans (Ctrl+C ends it).");
            using var worker = new WorkerLoop((names, token) => ClientCatalog.WithVersionsAsync(registry, names, Console.Error, token), bus, name, new ClusterConnection(bootstrap) { Security = security, BrokerName = "the Kafka cluster", Readiness = new ConfluentClusterReadiness(bootstrap, security) }, Console.Error, CliErrors.Verbose);
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
}
