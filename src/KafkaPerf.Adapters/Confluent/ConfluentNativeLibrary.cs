using System.Reflection;
using System.Runtime.InteropServices;
using Confluent.Kafka;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// Binds Confluent.Kafka to a native librdkafka. The librdkafka.redist package is not on every package source
/// (it is not on this project's build machines), so besides the redist layout the operating system's library is
/// accepted: <c>KAFKAPERF_LIBRDKAFKA</c> (a full path) first, then <c>librdkafka.so.1</c> from the system
/// (Debian/Ubuntu: <c>apt-get install librdkafka1</c>).
/// </summary>
/// <remarks>Thread-safe; the binding happens once per process. The result records the librdkafka version in use,
/// because the managed Confluent.Kafka version alone does not say which native code ran.</remarks>
public static class ConfluentNativeLibrary
{
    /// <summary>The variable that names a librdkafka shared library explicitly.</summary>
    public const string PathVariable = "KAFKAPERF_LIBRDKAFKA";

    private static readonly Lock Gate = new();
    private static string? _version;

    /// <summary>Binds librdkafka if not done yet and returns its version.</summary>
    /// <returns>The librdkafka version, e.g. <c>2.0.2</c>.</returns>
    /// <exception cref="DllNotFoundException">No librdkafka was found; the message says how to install one.</exception>
    public static string EnsureLoaded()
    {
        lock (Gate)
        {
            if (_version is not null) return _version;
            NativeLibrary.SetDllImportResolver(typeof(Library).Assembly, Resolve);
            try
            {
                _version = Library.VersionString;
            }
            catch (Exception ex) when (ex is DllNotFoundException or TypeInitializationException or EntryPointNotFoundException)
            {
                throw new DllNotFoundException(
                    "librdkafka (the native library under Confluent.Kafka) was not found: install it (Debian/Ubuntu: apt-get install librdkafka1) "
                    + $"or set {PathVariable} to the path of librdkafka.so.", ex);
            }
            return _version;
        }
    }

    /// <summary>The version of the managed Confluent.Kafka assembly.</summary>
    public static string ManagedVersion =>
        typeof(Library).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0]
        ?? typeof(Library).Assembly.GetName().Version?.ToString(3) ?? "unknown";

    private static IntPtr Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (!name.Contains("rdkafka", StringComparison.OrdinalIgnoreCase)) return IntPtr.Zero;
        if (Environment.GetEnvironmentVariable(PathVariable) is { Length: > 0 } explicitPath)
            return NativeLibrary.Load(explicitPath);
        // The redist layout (runtimes/<rid>/native) wins when present; the system library is the fallback.
        if (NativeLibrary.TryLoad(name, assembly, searchPath, out var handle)) return handle;
        foreach (var candidate in new[] { "librdkafka.so.1", "librdkafka.so", "librdkafka.dylib", "librdkafka.dll" })
        {
            if (NativeLibrary.TryLoad(candidate, out handle)) return handle;
        }
        return IntPtr.Zero;
    }
}
