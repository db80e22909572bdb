using System.CommandLine;
using KafkaPerf.Clients;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>clients</c>: lists the registered clients.</summary>
internal sealed class ClientsCommand(ClientRegistry registry)
{
    public Command Build()
    {
        var command = new Command("clients", "List the registered clients.");
        command.SetAction(_ =>
        {
            foreach (var factory in registry.Factories)
                Console.WriteLine($"{factory.Name,-12} {(factory.RequiresBroker ? "needs a broker" : "no broker"),-15} {factory.Description}");
            return ExitCodes.Success;
        });
        return command;
    }
}
