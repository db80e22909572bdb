using System.CommandLine;
using System.Globalization;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Adapters.Profiling;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Cli.Telemetry;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;

namespace KafkaPerf.Cli.Commands;

/// <summary>
/// <c>run</c>: the seed benchmark as a matrix, on the embedded broker unless <c>--bootstrap</c> names a cluster; and
/// <c>find-rate</c>, the highest rate each client holds under a latency goal. The options are read in one place each
/// (<see cref="PlanOptions"/>, <see cref="BrokerOptions"/>, <see cref="OutputOptions"/>, <see cref="DistributionOptions"/>,
/// <see cref="FindRateOptions"/>); a <see cref="BenchmarkSession"/> does the rest.
/// </summary>
internal sealed class RunCommand(ClientCatalog catalog, EmbeddedKafkaBrokerOptions brokerDefaults, IServiceProvider services, Shutdown shutdown)
{
    public Command Build()
    {
        var command = new Command("run", "Run a benchmark matrix and print the comparison tables.");
        foreach (var option in (Option[])[.. PlanOptions.RunHead, ClientCatalog.Plugin, .. BrokerOptions.All, .. PlanOptions.Replication, .. PlanOptions.Faults, .. PlanOptions.Sweeps,
            .. OutputOptions.All, OutputOptions.Profile, .. StoreOptions.ForRun, PlanOptions.StallTimeout, .. DistributionOptions.All, .. SecurityOptions.All])
            command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, findRate: false, shutdown.Token));
        return command;
    }

    /// <summary><c>find-rate</c>: the highest rate at which each client holds a latency goal, with run's options.</summary>
    public Command BuildFindRate()
    {
        var command = new Command("find-rate", "Find, per client and cell, the highest rate that holds a latency goal on response time (--slo p99<20ms).");
        foreach (var option in (Option[])[.. FindRateOptions.All, .. PlanOptions.FindRateHead, ClientCatalog.Plugin, .. BrokerOptions.All, .. PlanOptions.Replication,
            .. PlanOptions.Sweeps, .. OutputOptions.All, .. StoreOptions.ForRun, PlanOptions.StallTimeout, .. SecurityOptions.All])
            command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, findRate: true, shutdown.Token));
        return command;
    }

    private async Task<int> ExecuteAsync(ParseResult parse, bool findRate, CancellationToken cancellationToken)
    {
        BenchmarkPlan plan;
        RateSearchOptions? search = null;
        Outputs outputs;
        BrokerSource source;
        IReadOnlyList<string> notes;
        Distribution? distribution;
        StoreRequest? store;
        ClientRegistry registry;
        IReadOnlyList<string> plugins = ClientCatalog.PluginPaths(parse);
        // The base name of the result files; a broker that dies leaves a copy of its log beside them.
        var stem = "kafkaperf-" + DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        try
        {
            BrokerOptions.ApplyKafkaHome(parse);
            registry = catalog.WithPlugins(plugins);
            if (findRate) search = FindRateOptions.Read(parse);
            plan = PlanOptions.Read(parse, registry, search);
            outputs = OutputOptions.Read(parse);
            store = StoreOptions.Read(parse);
            var crashLog = Path.GetFullPath(Path.Combine(outputs.Folder, $"{stem}-broker-{Environment.ProcessId}.log"));
            source = BrokerOptions.Read(parse, brokerDefaults, crashLog, out notes);
            // The embedded broker puts shaping proxies in front of its nodes only for a plan that asks for a network, or for
            // a fault that acts through them (partition, isolate, slow).
            if ((plan.SettingsVariants.Any(v => v.Network is not null) || plan.Faults.Any(FaultSpec.IsNetworkText))
                && source is BrokerSource.EmbeddedBroker embedded)
                source = embedded with { Options = embedded.Options with { ShapedNetwork = true } };
            distribution = DistributionOptions.Read(parse);
            // A client version (confluent@2.15.1) is restored once, before anything starts.
            registry = await ClientCatalog.WithVersionsAsync(registry, plan.Clients, outputs.Log, cancellationToken);
        }
        catch (PluginException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return CancelledExitCode();
        }
        catch (PlanValidationException ex)
        {
            // With --verbose, the cause's stack trace (a missing jar's, a bad file's), not this line's.
            return CliErrors.BadInput(ex.Message, ex.InnerException ?? ex);
        }
        foreach (var note in notes) Console.Error.WriteLine(note);
        (plan, var warmupNotice) = WithClusterWarmup(parse, plan, registry, source, distribution);

        var log = outputs.Log;
        var checkpoints = new CheckpointFiles(outputs.Folder, stem, outputs.Formats, Console.Error);
        var session = new BenchmarkSession(plan, registry, source, new SessionOptions
        {
            Log = log,
            Checkpoints = checkpoints,
            Profiler = !findRate && parse.GetValue(OutputOptions.Profile) ? new PerfProfiler(outputs.Folder, stem, log) : null,
            Remote = distribution is { } d
                ? async (connection, token) => await WorkerGroup.JoinAsync(connection, plan, d.Group, d.Expect, d.Processes, WorkerCommandLine(plugins), d.JoinTimeout, log, token)
                : null,
        });
        // Every refusal of the plan (names, prerequisites, the cluster's known size and disk, what workers cannot run)
        // is the session's, said before a broker or a worker starts.
        if (session.Validate() is { Count: > 0 } findings) return CliErrors.BadInput(string.Join(Environment.NewLine, findings.Select(f => f.Message)));
        // Said once the plan is known to be valid: a refused plan gets its one line only.
        if (warmupNotice is not null) log?.WriteLine(warmupNotice);
        if (ResultFiles.CheckWritable(outputs.Folder, out string? createdOutput) is { } unwritable) return CliErrors.BadInput(unwritable);
        // The store is opened (created, migrated) before anything starts: one that cannot be had costs no measurement.
        StoredResults? stored = null;
        if (store is not null)
        {
            try
            {
                stored = await StoredResults.OpenAsync(store, cancellationToken);
            }
            catch (ResultStoreException ex)
            {
                ResultFiles.RemoveIfEmpty(outputs.Folder, createdOutput);
                return CliErrors.BadInput(ex.Message, ex);
            }
        }

        // Disposed after the broker on every way out, Ctrl+C included: what is pending is exported then.
        using var telemetry = TelemetrySetup.Start(services, outputs.Otel, LiveProgress.Lines);
        // The last emergency action: a broker that is stopped (SIGSTOP) would outlive the process.
        using var killBroker = shutdown.OnImmediateEnd(() =>
        {
            session.KillNow();
            return null;
        });
        try
        {
            if (await StartAsync(session, parse, createdOutput, outputs, cancellationToken) is { } failed) return failed;

            // A process that must end at once (a second Ctrl+C) still leaves every finished run in the files.
            using var emergency = shutdown.OnImmediateEnd(() => checkpoints.WriteInterrupted() is { } saved
                ? $"The runs done are saved in {saved}{(outputs.Formats.Contains("csv") ? " and its .csv" : string.Empty)}, the run in progress marked cancelled; no report was written."
                : "No run had finished: nothing was saved.");
            BenchmarkResult result;
            try
            {
                // A live bar on a terminal; plain lines in a pipe or a CI log; nothing with --quiet.
                result = search is not null ? await session.FindRateAsync(search, cancellationToken)
                    : outputs.Quiet ? await session.RunAsync(NullProgress.Instance, cancellationToken)
                    : LiveProgress.IsSupported ? await LiveProgress.RunAsync(plan, progress => new ValueTask<BenchmarkResult>(session.RunAsync(progress, cancellationToken)))
                    : await session.RunAsync(new ConsoleProgress(Console.Error), cancellationToken);
            }
            catch (PrerequisiteException ex)
            {
                ResultFiles.RemoveIfEmpty(outputs.Folder, createdOutput);
                return CliErrors.BadInput(ex.Message, ex);
            }
            int exit = ResultFiles.Write(result, outputs, checkpoints, stem, CancelledExitCode());
            return stored is null ? exit : await stored.AppendAsync(result, exit, outputs.Folder);
        }
        finally
        {
            // Cancelled: the broker this plan started ends at once (its data goes either way). A graceful stop waited for
            // a broker that got the signal too (Ctrl+C at a terminal, a signal to the whole group) to run Kafka's own
            // shutdown, and outlasted the grace the process has after a signal.
            if (cancellationToken.IsCancellationRequested) session.KillNow();
            await session.DisposeAsync();
        }
    }

    /// <summary>The cluster warm-up the plan gets: by default a rate plan or a search on a broker the tool starts warms it
    /// up first (a new broker's first cells measure its JVMs compiling: docs/BENCHMARKS.md, "A just-started cluster").</summary>
    private static (BenchmarkPlan Plan, string? Notice) WithClusterWarmup(ParseResult parse, BenchmarkPlan plan, ClientRegistry registry, BrokerSource source, Distribution? distribution)
    {
        bool needsBroker = plan.Clients.Any(c => registry.TryGet(c, out var factory) && factory.RequiresBroker);
        bool typed = !PlanOptions.IsDefault(parse, PlanOptions.ClusterWarmup);
        if (typed || parse.GetValue(PlanOptions.PlanFile) is not null || !plan.IsRate || distribution is not null || !needsBroker
            || source is not (BrokerSource.EmbeddedBroker or BrokerSource.ContainerBroker)) return (plan, null);
        int brokers = source.KnownBrokers ?? 1;
        var warmup = ClusterWarmupDefaults.For(brokers);
        return (plan with { ClusterWarmup = warmup }, string.Create(CultureInfo.InvariantCulture,
            $"kafkaperf: the {(brokers == 1 ? "broker" : "cluster")} this plan starts is warmed up first, for {warmup.TotalSeconds:0} s ({(brokers == 1 ? "one broker" : $"{brokers} brokers")}: docs/BENCHMARKS.md, \"{(brokers == 1 ? "One just-started broker" : "A just-started cluster")}\"); --cluster-warmup 0s for none, or another length."));
    }

    /// <summary>Starts the session's broker and workers; a failure is said in one line and its exit code returned.</summary>
    private async Task<int?> StartAsync(BenchmarkSession session, ParseResult parse, string? createdOutput, Outputs outputs, CancellationToken cancellationToken)
    {
        if (!session.NeedsBroker)
        {
            if (parse.GetValue(BrokerOptions.Bootstrap) is not null) outputs.Log?.WriteLine("kafkaperf: --bootstrap is not used: no client of this plan needs a broker.");
            else if (parse.GetValue(BrokerOptions.Broker) is { } broker && !broker.Trim().Equals("embedded", StringComparison.OrdinalIgnoreCase))
                outputs.Log?.WriteLine("kafkaperf: --broker is not used: no client of this plan needs a broker.");
        }
        try
        {
            await session.StartAsync(cancellationToken);
            return null;
        }
        catch (PlanValidationException ex)
        {
            // The cluster's size is known now: a replication it cannot hold is said before any run (the broker stops).
            ResultFiles.RemoveIfEmpty(outputs.Folder, createdOutput);
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (PrerequisiteException ex)
        {
            ResultFiles.RemoveIfEmpty(outputs.Folder, createdOutput);
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (Exception ex) when (ex is BrokerStartException or WorkersUnavailableException or TimeoutException or Confluent.Kafka.KafkaException)
        {
            ResultFiles.RemoveIfEmpty(outputs.Folder, createdOutput);
            return CliErrors.Fail(ExitCodes.BrokerFailed, ex.Message, ex);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            ResultFiles.RemoveIfEmpty(outputs.Folder, createdOutput);
            return CancelledExitCode();
        }
    }

    /// <summary>How to start a local worker: this tool again (with its assembly when the executable is <c>dotnet</c>: the
    /// tests, a framework-dependent launch), its <c>worker</c> command and the plugins of this command line.</summary>
    private static string[] WorkerCommandLine(IReadOnlyList<string> plugins)
    {
        var path = Environment.ProcessPath ?? throw new InvalidOperationException("this process's executable is unknown");
        string[] tool = Path.GetFileNameWithoutExtension(path) == "dotnet" ? [path, typeof(RunCommand).Assembly.Location] : [path];
        return [.. tool, "worker", .. plugins.SelectMany(p => new[] { "--plugin", Path.GetFullPath(p) })];
    }

    /// <summary>130 after Ctrl+C, 143 after SIGTERM.</summary>
    private int CancelledExitCode() => shutdown.SignalExitCode is > 0 and var code ? code : ExitCodes.Cancelled;
}
