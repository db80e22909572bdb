using System.Reflection;
using System.Runtime.InteropServices;
using System.Runtime.Loader;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Plugins;

/// <summary>
/// A plugin's own load context: it shares only the client contract with the host (KafkaPerf.Core and the assemblies its
/// public API names) and takes everything else from the plugin's folder first (its own Confluent.Kafka, its own JSON
/// library, its own native libraries), so that two versions of one library run side by side in one process.
/// </summary>
/// <remarks>
/// Native libraries are resolved through the plugin's <c>.deps.json</c>, then its folder and its
/// <c>runtimes/RID/native</c> folders; a library found there that cannot be loaded fails loudly instead of falling back
/// to the host's copy of the same name (a plugin's managed Confluent.Kafka would otherwise run silently on the host's
/// librdkafka). An assembly the plugin does not carry comes from the host (the framework, or the host's copy).
/// Not collectible: a native library is never unloaded, and librdkafka starts threads of its own.
/// </remarks>
internal sealed class PluginLoadContext : AssemblyLoadContext
{
    private static readonly HashSet<string> Contract = ContractAssemblies();
    private readonly AssemblyDependencyResolver? _resolver;
    private readonly string _folder;
    private readonly List<string> _nativeFiles = [];

    /// <summary>Creates the context of the plugin whose main assembly is <paramref name="mainAssembly"/>.</summary>
    /// <param name="name">The context's name (for diagnostics).</param>
    /// <param name="mainAssembly">The plugin's assembly; its <c>.deps.json</c>, when beside it, guides the resolution.</param>
    public PluginLoadContext(string name, string mainAssembly)
        : base(name, isCollectible: false)
    {
        _folder = Path.GetDirectoryName(Path.GetFullPath(mainAssembly))!;
        if (File.Exists(Path.ChangeExtension(mainAssembly, ".deps.json"))) _resolver = new AssemblyDependencyResolver(mainAssembly);
    }

    /// <summary>The native files this context loaded, in order.</summary>
    public IReadOnlyList<string> NativeFiles
    {
        get
        {
            lock (_nativeFiles) return [.. _nativeFiles];
        }
    }

    /// <summary>Whether an assembly is part of the client contract, which every plugin shares with the host.</summary>
    /// <param name="name">The assembly's simple name.</param>
    /// <returns><see langword="true"/> for KafkaPerf.Core and the assemblies it references beyond the framework.</returns>
    public static bool IsContract(string name) => Contract.Contains(name);

    /// <inheritdoc />
    protected override Assembly? Load(AssemblyName assemblyName)
    {
        if (assemblyName.Name is not { } name || Contract.Contains(name)) return null;
        var path = _resolver?.ResolveAssemblyToPath(assemblyName);
        if (path is null)
        {
            var candidate = Path.Combine(_folder, name + ".dll");
            if (File.Exists(candidate)) path = candidate;
        }
        return path is null ? null : LoadFromAssemblyPath(path);
    }

    /// <inheritdoc />
    protected override IntPtr LoadUnmanagedDll(string unmanagedDllName)
    {
        var path = _resolver?.ResolveUnmanagedDllToPath(unmanagedDllName) ?? Probe(unmanagedDllName);
        if (path is null) return IntPtr.Zero;
        // Thrown on when it cannot be loaded: never the host's library of the same name in its place.
        var handle = LoadUnmanagedDllFromPath(path);
        lock (_nativeFiles) _nativeFiles.Add(path);
        return handle;
    }

    private string? Probe(string name)
    {
        string[] folders =
        [
            _folder,
            Path.Combine(_folder, "runtimes", RuntimeInformation.RuntimeIdentifier, "native"),
            Path.Combine(_folder, "runtimes", $"{(OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux")}-{RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant()}", "native"),
        ];
        string[] files = OperatingSystem.IsWindows() ? [name, name + ".dll"]
            : OperatingSystem.IsMacOS() ? [name, name + ".dylib", "lib" + name + ".dylib"]
            : [name, name + ".so", "lib" + name + ".so"];
        return folders.SelectMany(folder => files.Select(file => Path.Combine(folder, file))).FirstOrDefault(File.Exists);
    }

    /// <summary>KafkaPerf.Core and every assembly it references that the framework does not provide (HdrHistogram, the
    /// DI abstractions): the types a plugin and the host exchange.</summary>
    private static HashSet<string> ContractAssemblies()
    {
        var core = typeof(IBenchClientFactory).Assembly;
        var framework = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { core.GetName().Name! };
        foreach (var reference in core.GetReferencedAssemblies())
        {
            if (reference.Name is not { } name || File.Exists(Path.Combine(framework, name + ".dll"))) continue;
            names.Add(name);
        }
        return names;
    }
}
