using System.CommandLine;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>broker</c>: starts the embedded broker (or cluster), prints its bootstrap addresses and runs until Ctrl+C.</summary>
/// <param name="defaults">The broker options that flags adjust.</param>
/// <param name="shutdown">Ctrl+C and SIGTERM.</param>
internal sealed class BrokerCommand(EmbeddedKafkaBrokerOptions defaults, Shutdown shutdown)
{
    private static readonly Option<int> Heap = new("--broker-heap")
    {
        Description = "Java heap of each broker, in MB.",
        DefaultValueFactory = _ => EmbeddedKafkaBrokerOptions.DefaultHeapMegabytes,
    };

    private static readonly Option<int> Brokers = new("--brokers")
    {
        Description = $"Brokers of the cluster (1 to {EmbeddedKafkaBrokerOptions.MaxBrokers}), each a JVM on loopback; the first 3 are controllers too.",
        DefaultValueFactory = _ => 1,
    };

    public Command Build()
    {
        var command = new Command("broker", "Start the embedded Kafka broker (or a cluster with --brokers), print its bootstrap address (stdout) and run until Ctrl+C.") { Heap, Brokers };
        foreach (var option in SecurityOptions.All) command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, shutdown.Token));
        return command;
    }

    private async Task<int> ExecuteAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        EmbeddedKafkaBroker broker;
        try
        {
            // Stopped by Ctrl+C within the grace of a few seconds: no time to write the class archive on the way out.
            var options = defaults with { HeapMegabytes = parse.GetValue(Heap), Brokers = parse.GetValue(Brokers), WriteClassArchive = false };
            if (options.Brokers is < 1 or > EmbeddedKafkaBrokerOptions.MaxBrokers)
                return Fail(ExitCodes.BadInput, $"--brokers {options.Brokers} is out of range: the embedded cluster has 1 to {EmbeddedKafkaBrokerOptions.MaxBrokers} brokers (3 is a replicated cluster).");
            options = options with { Security = SecurityOptions.Read(parse, embedded: true) };
            options.Validate();
            broker = await EmbeddedKafkaBroker.StartAsync(options, cancellationToken);
        }
        catch (PlanValidationException ex)
        {
            return CliErrors.Fail(ExitCodes.BadInput, ex.Message, ex);
        }
        catch (ArgumentException ex) when (ex is not ArgumentOutOfRangeException)
        {
            return Fail(ExitCodes.BadInput, $"{ex.Message.Split(" (Parameter")[0]} Change the credentials (--sasl-credentials or {SecurityOptions.UsernameVariable}/{SecurityOptions.PasswordVariable}).");
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
            if (broker.Nodes.Count == 1)
            {
                Console.Error.WriteLine(
                    $"kafkaperf: embedded Kafka {broker.KafkaVersion} broker at {broker.BootstrapServers}, ready in {broker.StartupTime.TotalSeconds:0.0} s "
                    + $"(pid {broker.ProcessId}, log {broker.LogFile}). Ctrl+C stops it and deletes its data.");
            }
            else
            {
                Console.Error.WriteLine(
                    $"kafkaperf: embedded Kafka {broker.KafkaVersion} cluster of {broker.Nodes.Count} brokers ({broker.Controllers} of them controllers) "
                    + $"at {broker.BootstrapServers}, ready in {broker.StartupTime.TotalSeconds:0.0} s. Ctrl+C stops it and deletes its data.");
                foreach (var node in broker.Nodes)
                    Console.Error.WriteLine($"kafkaperf:   node {node.NodeId} at {node.BootstrapServer} (pid {node.ProcessId}, log {node.LogFile})");
                broker.NodeExited += (_, exit) => Console.Error.WriteLine($"kafkaperf: {exit.What}; the cluster goes on without it.");
            }
            if (broker.Security.IsSecured) DescribeSecurity(broker);
            // Ctrl+C or SIGTERM is the normal way to stop; a cluster that can no longer serve is a failure.
            var stopped = Task.Delay(Timeout.Infinite, cancellationToken);
            died = await Task.WhenAny(stopped, broker.UnexpectedExit) == broker.UnexpectedExit;
        }
        if (died)
        {
            return Fail(ExitCodes.BrokerFailed, broker.Nodes.Count == 1
                ? "the broker JVM ended by itself; its data folder is deleted. Start it again, or look at the system's log (out of memory?)."
                : $"{broker.UnexpectedExit.Result.What}; its data folders are deleted. Start it again, or look at the system's log (out of memory?).");
        }
        Console.Error.WriteLine("kafkaperf: broker stopped, data deleted.");
        return ExitCodes.Success;
    }

    /// <summary>Says how to connect to a secured cluster, and writes the client settings - secrets included - into two
    /// files only this user can read, deleted with the cluster: the password never appears on the terminal.</summary>
    private static void DescribeSecurity(EmbeddedKafkaBroker broker)
    {
        var security = broker.Security;
        var java = Path.Combine(broker.DataDirectory, "client.properties");
        var librdkafka = Path.Combine(broker.DataDirectory, "librdkafka.conf");
        PrivateFile.WriteProperties(java, security.JavaProperties());
        PrivateFile.WriteProperties(librdkafka, security.LibrdkafkaProperties());
        Console.Error.WriteLine($"kafkaperf:   clients connect with {security}.");
        Console.Error.WriteLine($"kafkaperf:   client settings, secrets included, readable by you only: {java} (Java clients, --producer.config) and {librdkafka} (librdkafka, kcat -F).");
    }

    private static int Fail(int exitCode, string message)
    {
        Console.Error.WriteLine($"kafkaperf: {message}");
        return exitCode;
    }
}
