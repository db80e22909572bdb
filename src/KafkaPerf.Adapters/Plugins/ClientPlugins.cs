using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Plugins;

/// <summary>
/// Loads clients from outside the tool: every <see cref="IBenchClientFactory"/> of a plugin assembly (built against
/// KafkaPerf.Core and published with its dependencies), each plugin in a load context of its own
/// (<see cref="PluginLoadContext"/>), and client versions prepared by <see cref="ClientVersions"/>. Everything that can
/// be wrong is said in one line (<see cref="PluginException"/>) before anything starts.
/// </summary>
public static class ClientPlugins
{
    /// <summary>The variable that names plugins, as <c>--plugin</c> does: paths separated by the platform's path separator
    /// (<c>:</c>).</summary>
    public const string Variable = "KAFKAPERF_PLUGINS";

    /// <summary>The plugins named by <see cref="Variable"/>.</summary>
    /// <returns>The paths; empty when it is unset.</returns>
    public static IReadOnlyList<string> FromEnvironment() =>
        Environment.GetEnvironmentVariable(Variable)?.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) ?? [];

    /// <summary>Loads the clients of every plugin and checks their names against each other and the built-in ones.</summary>
    /// <param name="paths">Plugin assemblies, or the folders they were published to (or a client version's folder).</param>
    /// <param name="builtIn">The names the tool's own clients already have.</param>
    /// <returns>Every plugin client.</returns>
    /// <exception cref="PluginException">A plugin cannot be used; one line.</exception>
    public static IReadOnlyList<PluginClient> Load(IEnumerable<string> paths, IEnumerable<string> builtIn)
    {
        ArgumentNullException.ThrowIfNull(paths);
        ArgumentNullException.ThrowIfNull(builtIn);
        var taken = new HashSet<string>(builtIn, StringComparer.OrdinalIgnoreCase);
        var clients = new List<PluginClient>();
        foreach (var path in paths.Distinct(StringComparer.Ordinal))
        {
            foreach (var client in Load(path))
            {
                var name = client.Factory.Name;
                if (taken.Contains(name) && clients.FirstOrDefault(c => c.Factory.Name.Equals(name, StringComparison.OrdinalIgnoreCase)) is { } first)
                    throw new PluginException($"Two plugin clients are named '{name}': from '{first.Origin}' and from '{client.Origin}': load one of them, or rename one (its factory's Name).");
                if (taken.Contains(name))
                    throw new PluginException($"The plugin client '{name}' from '{client.Origin}' has the name of a built-in client: rename it (its factory's Name), e.g. '{name}-mine'.");
                taken.Add(name);
                clients.Add(client);
            }
        }
        return clients;
    }

    /// <summary>Loads the clients of one plugin.</summary>
    /// <param name="path">A plugin assembly, the folder it was published to, or a client version's folder.</param>
    /// <returns>Its clients.</returns>
    /// <exception cref="PluginException">It cannot be used; one line.</exception>
    public static IReadOnlyList<PluginClient> Load(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        if (Directory.Exists(path) && ClientVersions.IsVersionFolder(path)) return ClientVersions.Load(path);
        var assembly = MainAssembly(path);
        CheckContract(assembly);
        var context = new PluginLoadContext($"plugin:{Path.GetFileNameWithoutExtension(assembly)}", assembly);
        Assembly loaded;
        Type[] types;
        try
        {
            loaded = context.LoadFromAssemblyPath(assembly);
            types = loaded.GetExportedTypes();
        }
        catch (Exception ex) when (ex is FileLoadException or FileNotFoundException or BadImageFormatException or ReflectionTypeLoadException or TypeLoadException)
        {
            throw new PluginException($"'{assembly}' could not be loaded ({FirstLine(ex)}): publish the plugin with its dependencies (dotnet publish) and name the published .dll or folder.", ex);
        }
        var factories = Factories(assembly, types);
        if (factories.Count == 0)
            throw new PluginException($"'{assembly}' holds no client: no public {nameof(IBenchClientFactory)} with a public parameterless constructor and no {nameof(IBenchClientFactoryProvider)}; see samples/CustomClient.");
        foreach (var factory in factories)
        {
            if (string.IsNullOrWhiteSpace(factory.Name) || factory.Name.Any(c => char.IsWhiteSpace(c) || c is ',' or '@' or ':'))
                throw new PluginException($"The client '{factory.Name}' of '{assembly}' has a name plans cannot use: name it with letters, digits, '-', '_' and '.'.");
        }
        var duplicate = factories.GroupBy(f => f.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
            throw new PluginException($"'{assembly}' holds two clients named '{duplicate.Key}': give each factory a name of its own.");
        return [.. factories.Select(f => new PluginClient(f, assembly))];
    }

    /// <summary>The plugin's assembly: the file named, or in a folder the one its <c>.deps.json</c> describes.</summary>
    private static string MainAssembly(string path)
    {
        if (File.Exists(path)) return Path.GetFullPath(path);
        if (!Directory.Exists(path))
            throw new PluginException($"The plugin '{path}' does not exist: give a plugin's .dll, or the folder it was published to (dotnet publish).");
        var candidates = Directory.GetFiles(path, "*.deps.json")
            .Select(deps => Path.Combine(path, Path.GetFileName(deps)[..^".deps.json".Length] + ".dll"))
            .Where(File.Exists).ToList();
        return candidates.Count switch
        {
            1 => Path.GetFullPath(candidates[0]),
            0 => throw new PluginException($"The folder '{path}' holds no plugin: it needs a .dll with its .deps.json beside it (the output of dotnet publish of the plugin's project)."),
            _ => throw new PluginException($"The folder '{path}' holds {candidates.Count} assemblies with a .deps.json ({string.Join(", ", candidates.Select(Path.GetFileName))}): name the plugin's .dll itself."),
        };
    }

    /// <summary>Reads, without loading it, which KafkaPerf.Core the assembly was built against.</summary>
    private static void CheckContract(string assembly)
    {
        Version? built = null;
        try
        {
            using var stream = File.OpenRead(assembly);
            using var pe = new PEReader(stream);
            if (!pe.HasMetadata) throw new BadImageFormatException();
            var metadata = pe.GetMetadataReader();
            if (!metadata.IsAssembly) throw new BadImageFormatException();
            var core = typeof(IBenchClientFactory).Assembly.GetName().Name;
            foreach (var handle in metadata.AssemblyReferences)
            {
                var reference = metadata.GetAssemblyReference(handle);
                if (metadata.GetString(reference.Name) == core) built = reference.Version;
            }
        }
        catch (Exception ex) when (ex is BadImageFormatException or InvalidOperationException)
        {
            throw new PluginException($"'{assembly}' is not a .NET assembly: give the plugin's .dll (dotnet publish of a project that references KafkaPerf.Core).", ex);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PluginException($"'{assembly}' cannot be read ({ex.Message.TrimEnd('.')}).", ex);
        }
        if (built is null)
            throw new PluginException($"'{assembly}' holds no client: it does not reference KafkaPerf.Core, whose {nameof(IBenchClientFactory)} a plugin implements; see samples/CustomClient.");
        if (!ClientContract.Accepts(built))
            throw new PluginException($"'{assembly}' was built against the client contract {built.Major}.{built.Minor} (KafkaPerf.Core {built}) and this KafkaPerf has {ClientContract.Version}: "
                + (ClientContract.WhatChanged(built) is { } change ? change + " and build" : "build") + " it again against this KafkaPerf's KafkaPerf.Core.");
    }

    /// <summary>The factories of a plugin: its providers', or one per factory type with a parameterless constructor.</summary>
    private static List<IBenchClientFactory> Factories(string assembly, Type[] types)
    {
        var concrete = types.Where(t => t is { IsClass: true, IsAbstract: false } && t.GetConstructor(Type.EmptyTypes) is not null).ToList();
        var providers = concrete.Where(t => typeof(IBenchClientFactoryProvider).IsAssignableFrom(t)).ToList();
        if (providers.Count > 0)
            return [.. providers.SelectMany(t => Create<IBenchClientFactoryProvider>(assembly, t).Factories)];
        return [.. concrete.Where(t => typeof(IBenchClientFactory).IsAssignableFrom(t)).Select(t => Create<IBenchClientFactory>(assembly, t))];
    }

    private static T Create<T>(string assembly, Type type)
    {
        try
        {
            return (T)Activator.CreateInstance(type)!;
        }
        catch (TargetInvocationException ex) when (ex.InnerException is { } inner)
        {
            throw new PluginException($"Creating {type.Name} of '{assembly}' failed: {inner.GetType().Name}: {FirstLine(inner)}.", inner);
        }
        catch (Exception ex) when (ex is MissingMethodException or TypeLoadException or FileNotFoundException or FileLoadException)
        {
            throw new PluginException($"Creating {type.Name} of '{assembly}' failed: {FirstLine(ex)}.", ex);
        }
    }

    private static string FirstLine(Exception ex) => ex.Message.Split('\n')[0].Trim().TrimEnd('.');
}
