using System.CommandLine;
using KafkaPerf.Clients;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>clients</c>: lists the registered clients and whether each can run on this machine.</summary>
internal sealed class ClientsCommand(ClientRegistry registry)
{
    public Command Build()
    {
        var command = new Command("clients", "List the registered clients and reference tools, and whether they can run here.");
        command.SetAction(_ =>
        {
            int width = registry.Factories.Max(f => f.Name.Length);
            string pad = new(' ', width);
            foreach (var factory in registry.Factories.OrderBy(f => f.IsReference))
            {
                if (factory.IsReference && factory == registry.Factories.First(f => f.IsReference))
                    Console.WriteLine($"{Environment.NewLine}Reference tools (run beside the clients with --references, produce and consume only):");
                var problem = factory.CheckAvailability();
                Console.WriteLine($"{factory.Name.PadRight(width)} {(factory.RequiresBroker ? "needs a broker" : "no broker"),-15} {factory.Description}");
                if (factory.DescribeLibrary() is { } library) Console.WriteLine($"{pad} library: {library}");
                Console.WriteLine($"{pad} capabilities: {factory.Capabilities}");
                Console.WriteLine($"{pad} {(problem is null ? "ready" : "cannot run here: " + problem)}");
            }
            return ExitCodes.Success;
        });
        return command;
    }
}
