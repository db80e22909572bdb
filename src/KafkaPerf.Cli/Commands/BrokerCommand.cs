using System.CommandLine;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Broker;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>broker</c>: starts the embedded broker, prints its bootstrap address and runs until Ctrl+C.</summary>
/// <param name="defaults">The broker options that flags adjust.</param>
/// <param name="shutdown">Ctrl+C and SIGTERM.</param>
internal sealed class BrokerCommand(EmbeddedKafkaBrokerOptions defaults, Shutdown shutdown)
{
    private static readonly Option<int> Heap = new("--broker-heap")
    {
        Description = "Java heap of the broker, in MB.",
        DefaultValueFactory = _ => EmbeddedKafkaBrokerOptions.DefaultHeapMegabytes,
    };

    public Command Build()
    {
        var command = new Command("broker", "Start the embedded Kafka broker, print its bootstrap address (stdout) and run until Ctrl+C.") { Heap };
        command.SetAction((parse, ct) => ExecuteAsync(parse, shutdown.Token));
        return command;
    }

    private async Task<int> ExecuteAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        EmbeddedKafkaBroker broker;
        try
        {
            var options = defaults with { HeapMegabytes = parse.GetValue(Heap) };
            options.Validate();
            broker = await EmbeddedKafkaBroker.StartAsync(options, cancellationToken);
        }
        catch (ArgumentOutOfRangeException ex)
        {
            return Fail(ExitCodes.BadInput, $"{ex.Message.Split(" (Parameter")[0]} Use --broker-heap {EmbeddedKafkaBrokerOptions.MinimumHeapMegabytes} or more.");
        }
        catch (PrerequisiteException ex)
        {
            return CliErrors.Fail(ExitCodes.BadInput, ex.Message, ex);
        }
        catch (BrokerStartException ex)
        {
            return CliErrors.Fail(ExitCodes.BrokerFailed, ex.Message, ex);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return ExitCodes.Cancelled;
        }

        bool died;
        await using (broker)
        {
            Console.Out.WriteLine(broker.BootstrapServers);
            Console.Out.Flush();
            Console.Error.WriteLine(
                $"kafkaperf: embedded Kafka {broker.KafkaVersion} broker at {broker.BootstrapServers}, ready in {broker.StartupTime.TotalSeconds:0.0} s "
                + $"(pid {broker.ProcessId}, log {broker.LogFile}). Ctrl+C stops it and deletes its data.");
            // Ctrl+C or SIGTERM is the normal way to stop; a broker that ends by itself is a failure.
            var stopped = Task.Delay(Timeout.Infinite, cancellationToken);
            died = await Task.WhenAny(stopped, broker.Exited) == broker.Exited;
        }
        if (died) return Fail(ExitCodes.BrokerFailed, "the broker JVM ended by itself; its data folder is deleted. Start it again, or look at the system's log (out of memory?).");
        Console.Error.WriteLine("kafkaperf: broker stopped, data deleted.");
        return ExitCodes.Success;
    }

    private static int Fail(int exitCode, string message)
    {
        Console.Error.WriteLine($"kafkaperf: {message}");
        return exitCode;
    }
}
