using System.CommandLine;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.References;
using KafkaPerf.Cli.Commands;
using KafkaPerf.Cli.Telemetry;
using KafkaPerf.Clients;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace KafkaPerf.Cli;

internal static class Program
{
    public static Task<int> Main(string[] args)
    {
        // The java clients host a JVM, which needs a variable CoreCLR reads at start-up only.
        SelfRestart.EnsureAlternateStackCheck();
        return RunAsync(args);
    }

    /// <summary>The tool itself, for callers that started the process themselves (the tests).</summary>
    internal static async Task<int> RunAsync(string[] args)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { Args = [], DisableDefaults = false });
        // Logs stay out of the way of the tables.
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddConfluentClient();
        builder.Services.AddJavaClients();
        builder.Services.AddInMemoryClient();
        builder.Services.AddReferenceTools();
        builder.Services.AddKafkaPerfTelemetry();
        builder.Services.AddSingleton<ClientCatalog>();
        builder.Services.AddTransient<RunCommand>();
        builder.Services.AddTransient<ClientsCommand>();
        builder.Services.AddTransient<PrepareClientCommand>();
        builder.Services.AddTransient<BrokerCommand>();
        builder.Services.AddTransient<WorkerCommand>();
        builder.Services.AddSingleton(new EmbeddedKafkaBrokerOptions());
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

        var verbose = new Option<bool>("--verbose") { Description = "Errors carry their exception's stack trace.", Recursive = true };
        var root = new RootCommand("dotnet kafkaperf: benchmark Kafka clients side by side.")
        {
            verbose,
            host.Services.GetRequiredService<RunCommand>().Build(),
            host.Services.GetRequiredService<RunCommand>().BuildFindRate(),
            host.Services.GetRequiredService<ClientsCommand>().Build(),
            host.Services.GetRequiredService<PrepareClientCommand>().Build(),
            host.Services.GetRequiredService<BrokerCommand>().Build(),
            host.Services.GetRequiredService<WorkerCommand>().Build(),
            CompareCommand.Build(),
        };
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
