using System.CommandLine;
using KafkaPerf.Adapters.Plugins;

namespace KafkaPerf.Cli.Commands;

/// <summary>
/// <c>prepare-client confluent@VERSION --output DIR</c>: restores another Confluent.Kafka version (and its librdkafka)
/// from the NuGet sources into a folder that <c>--plugin DIR</c> loads, for a machine that reaches no package source.
/// </summary>
internal sealed class PrepareClientCommand(Shutdown shutdown)
{
    private static readonly Argument<string> Client = new("client") { Description = "The client and version, e.g. confluent@2.15.1 (its styles come with it)." };
    private static readonly Option<string> Output = new("--output") { Description = "The folder to make (it must not exist yet).", Required = true };

    public Command Build()
    {
        var command = new Command("prepare-client", "Restore another version of a client (confluent@2.15.1) from your NuGet sources into a folder, for --plugin FOLDER on a machine without a package source.")
        {
            Client, Output,
        };
        command.SetAction(async (parse, _) =>
        {
            var client = parse.GetValue(Client)!;
            var output = parse.GetValue(Output)!;
            string version;
            try
            {
                if (!ClientVersions.IsVersioned(client)) throw new PluginException($"'{client}' names no version: write e.g. confluent@2.15.1.");
                version = ClientVersions.VersionOf(client);
                if (Directory.Exists(output) || File.Exists(output)) throw new PluginException($"--output '{output}' exists: name a folder to make.");
            }
            catch (PluginException ex)
            {
                return CliErrors.BadInput(ex.Message, ex);
            }
            try
            {
                await ClientVersions.PrepareAsync(version, output, Console.Error, shutdown.Token);
                IReadOnlyList<PluginClient> clients;
                try
                {
                    clients = ClientPlugins.Load(output);
                }
                catch (PluginException)
                {
                    // A folder this tool cannot load is not left behind for another to try.
                    Directory.Delete(output, recursive: true);
                    throw;
                }
                Console.Error.WriteLine($"kafkaperf: {Path.GetFullPath(output)} holds {string.Join(", ", clients.Select(c => c.Factory.Name))}: pass --plugin {output} (copy the folder to the machine that runs them).");
                return ExitCodes.Success;
            }
            catch (PluginException ex)
            {
                return CliErrors.BadInput(ex.Message, ex);
            }
            catch (OperationCanceledException) when (shutdown.Token.IsCancellationRequested)
            {
                return shutdown.SignalExitCode is > 0 and var code ? code : ExitCodes.Cancelled;
            }
        });
        return command;
    }
}
