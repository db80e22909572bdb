using System.CommandLine;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Clients;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>clients</c>: lists the registered clients (the tool's own and the plugins') and whether each can run on
/// this machine.</summary>
internal sealed class ClientsCommand(ClientCatalog catalog)
{
    public Command Build()
    {
        var command = new Command("clients", "List the registered clients and reference tools (with the plugins' and where they came from), and whether they can run here.")
        {
            ClientCatalog.Plugin,
        };
        command.SetAction(parse =>
        {
            ClientRegistry registry;
            try
            {
                registry = catalog.WithPlugins(ClientCatalog.PluginPaths(parse));
            }
            catch (PluginException ex)
            {
                return CliErrors.BadInput(ex.Message, ex);
            }
            int width = registry.Factories.Max(f => f.Name.Length);
            string pad = new(' ', width);
            foreach (var factory in registry.Factories.OrderBy(f => f.IsReference))
            {
                if (factory.IsReference && factory == registry.Factories.First(f => f.IsReference))
                    Console.WriteLine($"{Environment.NewLine}Reference tools (run beside the clients with --references, produce and consume only):");
                var problem = factory.CheckAvailability();
                Console.WriteLine($"{factory.Name.PadRight(width)} {(factory.RequiresBroker ? "needs a broker" : "no broker"),-15} {factory.Description}");
                if (registry.OriginOf(factory.Name) is { } origin) Console.WriteLine($"{pad} from: {origin}");
                if (factory.DescribeLibrary() is { } library) Console.WriteLine($"{pad} library: {library}");
                Console.WriteLine($"{pad} capabilities: {factory.Capabilities}");
                Console.WriteLine($"{pad} {(problem is null ? "ready" : "cannot run here: " + problem)}");
            }
            Console.WriteLine($"{Environment.NewLine}Another Confluent.Kafka version runs beside the default one as confluent@VERSION (and confluent-async@VERSION, …), restored once from your NuGet sources; client contract {ClientContract.Version}.");
            return ExitCodes.Success;
        });
        return command;
    }
}
