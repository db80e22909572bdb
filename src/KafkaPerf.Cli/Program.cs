using System.CommandLine;
using System.CommandLine.Invocation;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Librdkafka;
using KafkaPerf.Adapters.References;
using KafkaPerf.Cli.Commands;
using KafkaPerf.Cli.Telemetry;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using KafkaPerf.Adapters.Profiling;

namespace KafkaPerf.Cli;

internal static class Program
{
    public static Task<int> Main(string[] args)
    {
        // The java clients host a JVM, which needs a variable CoreCLR reads at start-up only.
        SelfRestart.EnsureStartVariables(args);
        // --profile's perf map is written from the process's start: it goes with the process, however the command ends.
        if (Environment.GetEnvironmentVariable(PerfProfiler.OwnsPerfMapVariable) == "1") AppDomain.CurrentDomain.ProcessExit += (_, _) => PerfProfiler.DeletePerfMap();
        return RunAsync(args);
    }

    /// <summary>Every command and option, as the tool defines them: what docs/cli.md is generated from.</summary>
    /// <returns>The root command.</returns>
    internal static RootCommand CommandTree()
    {
        var services = new ServiceCollection();
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().Build());
        AddCommands(services);
        services.AddSingleton(new Shutdown(TextWriter.Null));
        return Root(services.BuildServiceProvider(), Verbose());
    }

    private static void AddCommands(IServiceCollection services)
    {
        services.AddConfluentClient();
        services.AddJavaClients();
        services.AddLibrdkafkaClient();
        services.AddInMemoryClient();
        services.AddReferenceTools();
        services.AddKafkaPerfTelemetry();
        services.AddSingleton<ClientCatalog>();
        services.AddTransient<RunCommand>();
        services.AddTransient<ClientsCommand>();
        services.AddTransient<PrepareClientCommand>();
        services.AddTransient<BrokerCommand>();
        services.AddTransient<WorkerCommand>();
        services.AddSingleton(new EmbeddedKafkaBrokerOptions());
    }

    private static Option<bool> Verbose() => new("--verbose") { Description = "Errors carry their exception's stack trace.", Recursive = true };

    private static RootCommand Root(IServiceProvider services, Option<bool> verbose)
    {
        var root = new RootCommand("dotnet kafkaperf: benchmark Kafka clients side by side.")
        {
            verbose,
            services.GetRequiredService<RunCommand>().Build(),
            services.GetRequiredService<RunCommand>().BuildFindRate(),
            services.GetRequiredService<ClientsCommand>().Build(),
            services.GetRequiredService<PrepareClientCommand>().Build(),
            services.GetRequiredService<BrokerCommand>().Build(),
            services.GetRequiredService<WorkerCommand>().Build(),
            CompareCommand.Build(),
            HistoryCommand.Build(),
        };
        root.Options.OfType<VersionOption>().Single().Action = new ReleaseVersionAction();
        return root;
    }

    /// <summary><c>--version</c>: the release every result records (<see cref="ClientContract.Release"/>, e.g. 2.2.0), which
    /// is the packages' version and whose major.minor is the contract's. System.CommandLine's own would print the entry
    /// assembly's informational version, which carries SourceLink's <c>+commit</c> suffix.</summary>
    private sealed class ReleaseVersionAction : SynchronousCommandLineAction
    {
        public override bool ClearsParseErrors => true;

        public override int Invoke(ParseResult parseResult)
        {
            parseResult.InvocationConfiguration.Output.WriteLine(ClientContract.Release);
            return ExitCodes.Success;
        }
    }

    /// <summary>The tool itself, for callers that started the process themselves (the tests).</summary>
    internal static async Task<int> RunAsync(string[] args)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { Args = [], DisableDefaults = false });
        // Logs stay out of the way of the tables.
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        AddCommands(builder.Services);
        // Ctrl+C and SIGTERM: the commands stop on its token; a second signal, or a command still running 4 s after the
        // first, ends the process at once (see Shutdown).
        using var shutdown = new Shutdown(Console.Error);
        builder.Services.AddSingleton(shutdown);
        IHost built;
        try
        {
            ConfigurationDefaults.AddSources(builder.Configuration);
            built = builder.Build();
        }
        catch (InvalidDataException ex)
        {
            Console.Error.WriteLine($"kafkaperf: {ConfigurationDefaults.FileName} could not be read ({(ex.InnerException ?? ex).Message.ReplaceLineEndings(" ").TrimEnd('.')}): fix it or remove it.");
            return ExitCodes.BadInput;
        }
        using var host = built;

        var verbose = Verbose();
        var root = Root(host.Services, verbose);
        try
        {
            // kafkaperf.json, then KAFKAPERF_ variables, then the flags typed: each overrides the one before.
            args = ConfigurationDefaults.Apply(args, host.Services.GetRequiredService<IConfiguration>(), root);
        }
        catch (InvalidOperationException ex)
        {
            Console.Error.WriteLine($"kafkaperf: {ex.Message}");
            return ExitCodes.BadInput;
        }
        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            // One line naming every problem, exit code 2: not System.CommandLine's whole help text and exit code 1.
            var command = parse.CommandResult.Command == root ? string.Empty : parse.CommandResult.Command.Name + " ";
            var problems = string.Join("; ", parse.Errors.Select(e => e.Message.TrimEnd('.')));
            Console.Error.WriteLine($"kafkaperf: {problems}: see 'dotnet kafkaperf {command}--help'.");
            return ExitCodes.BadInput;
        }
        CliErrors.Verbose = parse.GetValue(verbose);
        try
        {
            // Signals are Shutdown's, not System.CommandLine's.
            return await parse.InvokeAsync(new InvocationConfiguration
            {
                ProcessTerminationTimeout = null, EnableDefaultExceptionHandler = false,
            });
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return CliErrors.Unexpected(ex);
        }
    }
}
