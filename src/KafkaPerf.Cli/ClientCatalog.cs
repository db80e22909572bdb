using System.CommandLine;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Clients;

namespace KafkaPerf.Cli;

/// <summary>
/// The clients a command can name: the tool's own (registered at start-up), those of the plugins named by
/// <c>--plugin</c> and <c>KAFKAPERF_PLUGINS</c>, and the client versions a plan asks for (<c>confluent@2.15.1</c>).
/// </summary>
internal sealed class ClientCatalog(ClientRegistry builtIn)
{
    /// <summary><c>--plugin</c>, shared by every command that names clients.</summary>
    public static readonly Option<string[]> Plugin = new("--plugin")
    {
        Description = $"A client plugin: an assembly built against KafkaPerf.Core, or the folder it was published to (repeatable; also {ClientPlugins.Variable}, paths separated by ':'). Each loads in a context of its own; its clients are named like the tool's own.",
    };

    /// <summary>The tool's own clients.</summary>
    public ClientRegistry BuiltIn => builtIn;

    /// <summary>The plugins a command line names, with those of <see cref="ClientPlugins.Variable"/>.</summary>
    /// <param name="parse">The command line.</param>
    /// <returns>The paths, in order.</returns>
    public static IReadOnlyList<string> PluginPaths(ParseResult parse) => [.. ClientPlugins.FromEnvironment(), .. parse.GetValue(Plugin) ?? []];

    /// <summary>The tool's own clients and the plugins'.</summary>
    /// <param name="paths">The plugins.</param>
    /// <returns>The registry.</returns>
    /// <exception cref="PluginException">A plugin cannot be used; one line.</exception>
    public ClientRegistry WithPlugins(IReadOnlyList<string> paths) =>
        paths.Count == 0 ? builtIn : builtIn.With(ClientPlugins.Load(paths, builtIn.Names).Select(c => (c.Factory, c.Origin)));

    /// <summary>The registry with the client versions a plan's names ask for (<see cref="ClientVersions.AddToAsync"/>).</summary>
    /// <param name="registry">The clients so far.</param>
    /// <param name="names">The names a plan uses.</param>
    /// <param name="log">Progress lines, or <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops a restore.</param>
    /// <returns>The registry.</returns>
    /// <exception cref="PluginException">A version cannot be restored or loaded; one line.</exception>
    public static Task<ClientRegistry> WithVersionsAsync(ClientRegistry registry, IEnumerable<string> names, TextWriter? log, CancellationToken cancellationToken) =>
        ClientVersions.AddToAsync(registry, names, log, cancellationToken);
}
