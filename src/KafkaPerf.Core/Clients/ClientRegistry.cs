namespace KafkaPerf.Clients;

/// <summary>The clients that can be named in a plan.</summary>
public sealed class ClientRegistry
{
    private readonly Dictionary<string, IBenchClientFactory> _factories = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, string> _origins = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Builds the registry from the registered factories.</summary>
    /// <param name="factories">Every <see cref="IBenchClientFactory"/>; names must be unique.</param>
    /// <exception cref="ArgumentException">Two factories share a name.</exception>
    public ClientRegistry(IEnumerable<IBenchClientFactory> factories)
    {
        ArgumentNullException.ThrowIfNull(factories);
        foreach (var factory in factories)
        {
            if (!_factories.TryAdd(factory.Name, factory))
                throw new ArgumentException($"Two clients are registered under the name '{factory.Name}'.", nameof(factories));
        }
    }

    /// <summary>The registry with more clients from outside the tool (plugins, client versions), each with where it came from.</summary>
    /// <param name="clients">The factories and their origins.</param>
    /// <returns>A new registry: these clients and every one of this.</returns>
    /// <exception cref="ArgumentException">A name is taken.</exception>
    public ClientRegistry With(IEnumerable<(IBenchClientFactory Factory, string Origin)> clients)
    {
        ArgumentNullException.ThrowIfNull(clients);
        var added = clients.ToList();
        var registry = new ClientRegistry(_factories.Values.Concat(added.Select(c => c.Factory)));
        foreach (var (name, origin) in _origins) registry._origins[name] = origin;
        foreach (var (factory, origin) in added) registry._origins[factory.Name] = origin;
        return registry;
    }

    /// <summary>Where a client from outside the tool came from.</summary>
    /// <param name="name">The client name.</param>
    /// <returns>Its origin; <see langword="null"/> for a built-in client.</returns>
    public string? OriginOf(string name) => _origins.GetValueOrDefault(name);

    /// <summary>The registered names, sorted.</summary>
    public IReadOnlyList<string> Names => [.. _factories.Keys.Order(StringComparer.Ordinal)];

    /// <summary>The registered factories, sorted by name.</summary>
    public IReadOnlyList<IBenchClientFactory> Factories => [.. _factories.Values.OrderBy(f => f.Name, StringComparer.Ordinal)];

    /// <summary>Finds a factory by name.</summary>
    /// <param name="name">The client name.</param>
    /// <param name="factory">The factory, when found.</param>
    /// <returns>Whether the name is registered.</returns>
    public bool TryGet(string name, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out IBenchClientFactory? factory) =>
        _factories.TryGetValue(name, out factory);

    /// <summary>Finds a factory by name.</summary>
    /// <param name="name">The client name.</param>
    /// <returns>The factory.</returns>
    /// <exception cref="KeyNotFoundException">The name is not registered; the message lists the names that are.</exception>
    public IBenchClientFactory Get(string name) =>
        TryGet(name, out var factory)
            ? factory
            : throw new KeyNotFoundException(UnknownClientMessage(name));

    /// <summary>The one-line error for a name that is not registered.</summary>
    /// <param name="name">The unknown name.</param>
    /// <returns>The message, listing the registered names.</returns>
    public string UnknownClientMessage(string name) =>
        $"Unknown client '{name}': choose from {string.Join(", ", Factories.Where(f => !f.IsReference).Select(f => f.Name))}"
        + (Factories.Any(f => f.IsReference) ? $" (references, for --references: {string.Join(", ", Factories.Where(f => f.IsReference).Select(f => f.Name))})." : ".");

    /// <summary>The one-line error for a reference name that is not registered.</summary>
    /// <param name="name">The unknown name.</param>
    /// <returns>The message, listing the registered references.</returns>
    public string UnknownReferenceMessage(string name) =>
        $"Unknown reference '{name}': choose from {string.Join(", ", Factories.Where(f => f.IsReference).Select(f => f.Name).DefaultIfEmpty("(none registered)"))}.";
}
