using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Plugins;

/// <summary>A client that came from outside the tool: its factory and where it was loaded from.</summary>
/// <param name="Factory">The factory, named as plans name it.</param>
/// <param name="Origin">What to show of its origin: the plugin's file, or a client version's folder and packages.</param>
public sealed record PluginClient(IBenchClientFactory Factory, string Origin);
