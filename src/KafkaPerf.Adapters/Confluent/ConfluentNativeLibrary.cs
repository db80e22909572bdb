using System.Reflection;
using System.Runtime.InteropServices;
using Confluent.Kafka;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// Binds Confluent.Kafka to a native librdkafka, once per process, before any client exists. Tried in order:
/// the file named by <c>KAFKAPERF_LIBRDKAFKA</c>; the project's build of librdkafka 2.15.1 (the version
/// Confluent.Kafka 2.15.1 is built for, placed beside the assemblies by the build); the <c>librdkafka.redist</c>
/// package's native asset; the operating system's library. One older than 2.15 is refused (it crashes Confluent.Kafka
/// 2.15.1); any other version than 2.15.1 runs with a warning in the result.
/// </summary>
/// <remarks>Thread-safe. A failure is remembered: every later call throws the same one-line error.</remarks>
public static unsafe class ConfluentNativeLibrary
{
    /// <summary>The variable that names a librdkafka shared library explicitly.</summary>
    public const string PathVariable = "KAFKAPERF_LIBRDKAFKA";

    /// <summary>The librdkafka version Confluent.Kafka 2.15.1 is built and tested against.</summary>
    public const string ExpectedVersion = "2.15.1";

    private static readonly Lock Gate = new();
    private static LibrdkafkaBinding? _binding;
    private static PrerequisiteException? _failure;

    /// <summary>The version of the managed Confluent.Kafka assembly.</summary>
    public static string ManagedVersion =>
        typeof(Library).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0]
        ?? typeof(Library).Assembly.GetName().Version?.ToString(3) ?? "unknown";

    /// <summary>Binds librdkafka if not done yet.</summary>
    /// <returns>What was loaded, from where.</returns>
    /// <exception cref="PrerequisiteException">No usable librdkafka; the message says what to set or run.</exception>
    public static LibrdkafkaBinding EnsureLoaded()
    {
        lock (Gate)
        {
            if (_binding is not null) return _binding;
            if (_failure is not null) throw _failure;
            try
            {
                _binding = Load();
                return _binding;
            }
            catch (PrerequisiteException ex)
            {
                _failure = ex;
                throw;
            }
        }
    }

    private static LibrdkafkaBinding Load()
    {
        var (handle, path, origin) = Open();
        var assembly = typeof(Library).Assembly;
        // Every DllImport of Confluent.Kafka ("librdkafka") resolves to the one library chosen here.
        NativeLibrary.SetDllImportResolver(assembly, (name, _, _) =>
            name.Contains("rdkafka", StringComparison.OrdinalIgnoreCase) ? handle : IntPtr.Zero);
        try
        {
            // Reading the version makes Confluent.Kafka initialise its bindings, which the resolver above points at
            // the chosen file. Library.Load(path) is not used: on Linux it dlopens through an unversioned 'libdl',
            // which glibc 2.34 and later (Debian 12) no longer provide, so it fails there.
            var version = Library.VersionString;
            // If Confluent.Kafka was initialised before this binding (by code that used it first), it runs on
            // another library than the one chosen here; the results would then name the wrong one.
            var chosen = Marshal.PtrToStringUTF8(((delegate* unmanaged[Cdecl]<IntPtr>)NativeLibrary.GetExport(handle, "rd_kafka_version_str"))());
            if (chosen != version)
                throw new PrerequisiteException(
                    $"Confluent.Kafka already runs on librdkafka {version}, not on the chosen {chosen} at '{path}': bind it before any Confluent.Kafka client is created (ConfluentNativeLibrary.EnsureLoaded()).");
            if (TooOld(version) is { } tooOld)
                throw new PrerequisiteException($"librdkafka {version} at '{path}' (from {LibrdkafkaBinding.Name(origin)}) {tooOld}");
            return new LibrdkafkaBinding(version, path, origin, handle);
        }
        catch (Exception ex) when (ex is InvalidOperationException or EntryPointNotFoundException or DllNotFoundException
                                       or FileLoadException or TypeInitializationException)
        {
            throw new PrerequisiteException(
                $"librdkafka at '{path}' could not be used by Confluent.Kafka ({ex.Message.Split('\n')[0]}): run eng/build-librdkafka.sh, or set {PathVariable} to a librdkafka {ExpectedVersion} library.", ex);
        }
    }

    /// <summary>Why a librdkafka version cannot run Confluent.Kafka, or <see langword="null"/> when it can.</summary>
    /// <param name="version">A version such as <c>2.0.2</c>.</param>
    /// <returns>The rest of a one-line error, or <see langword="null"/>.</returns>
    /// <remarks>Confluent.Kafka 2.15.1 calls functions and struct layouts an older librdkafka lacks: with Debian's 2.0.2,
    /// a produce crashed the process in <c>rd_kafka_AdminOptions_set_request_timeout</c> and a roundtrip threw
    /// <c>EntryPointNotFoundException</c> (rd_kafka_topic_partition_get_leader_epoch). A library older than the
    /// expected major.minor is therefore refused; a newer one runs, with a warning in the result.</remarks>
    public static string? TooOld(string version)
    {
        if (!TryMajorMinor(version, out var actual) || !TryMajorMinor(ExpectedVersion, out var expected)) return null;
        return actual.CompareTo(expected) >= 0 ? null
            : $"is older than {ExpectedVersion}, which Confluent.Kafka {ManagedVersion} is built for, and crashes it: run eng/build-librdkafka.sh, or set {PathVariable} to a librdkafka {ExpectedVersion} library.";
    }

    private static bool TryMajorMinor(string version, out (int Major, int Minor) majorMinor)
    {
        var parts = version.Split('.', '-');
        majorMinor = default;
        if (parts.Length < 2 || !int.TryParse(parts[0], System.Globalization.CultureInfo.InvariantCulture, out var major)
            || !int.TryParse(parts[1], System.Globalization.CultureInfo.InvariantCulture, out var minor)) return false;
        majorMinor = (major, minor);
        return true;
    }

    private static (IntPtr Handle, string Path, LibrdkafkaOrigin Origin) Open()
    {
        if (Environment.GetEnvironmentVariable(PathVariable) is { Length: > 0 } explicitPath)
        {
            try
            {
                return (NativeLibrary.Load(explicitPath), Path.GetFullPath(explicitPath), LibrdkafkaOrigin.Variable);
            }
            catch (Exception ex) when (ex is DllNotFoundException or BadImageFormatException or ArgumentException)
            {
                throw new PrerequisiteException(
                    $"{PathVariable} is '{explicitPath}', which could not be loaded as librdkafka: point it at a librdkafka shared library (e.g. librdkafka.so.1), or unset it to use the project's build.", ex);
            }
        }

        foreach (var (candidate, origin) in BundledCandidates())
        {
            if (File.Exists(candidate) && NativeLibrary.TryLoad(candidate, out var handle)) return (handle, candidate, origin);
        }

        foreach (var name in new[] { "librdkafka.so.1", "librdkafka.1.dylib", "librdkafka.dylib", "librdkafka.dll" })
        {
            if (NativeLibrary.TryLoad(name, out var handle)) return (handle, LoadedPath(name) ?? name, LibrdkafkaOrigin.OperatingSystem);
        }

        throw new PrerequisiteException(
            $"librdkafka (the native library under Confluent.Kafka) was not found: run eng/build-librdkafka.sh (builds {ExpectedVersion}), set {PathVariable} to a librdkafka shared library, or install your OS's package (Debian/Ubuntu: apt-get install librdkafka1).");
    }

    private static IEnumerable<(string Path, LibrdkafkaOrigin Origin)> BundledCandidates()
    {
        var baseDirectory = AppContext.BaseDirectory;
        yield return (Path.Combine(baseDirectory, "librdkafka", "librdkafka.so.1"), LibrdkafkaOrigin.ProjectBuild);
        var file = OperatingSystem.IsWindows() ? "librdkafka.dll" : OperatingSystem.IsMacOS() ? "librdkafka.dylib" : "librdkafka.so";
        foreach (var rid in new[] { RuntimeInformation.RuntimeIdentifier, $"{Os()}-{RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant()}" }.Distinct())
            yield return (Path.Combine(baseDirectory, "runtimes", rid, "native", file), LibrdkafkaOrigin.Redist);
    }

    private static string Os() => OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux";

    /// <summary>The file the dynamic loader picked for a bare name, from the process's memory map (Linux).</summary>
    private static string? LoadedPath(string name)
    {
        const string maps = "/proc/self/maps";
        if (!File.Exists(maps)) return null;
        foreach (var line in File.ReadLines(maps))
        {
            int slash = line.IndexOf('/', StringComparison.Ordinal);
            if (slash >= 0 && line.AsSpan(slash).EndsWith(name, StringComparison.Ordinal)) return line[slash..];
            if (slash >= 0 && Path.GetFileName(line.AsSpan(slash)).StartsWith("librdkafka.so", StringComparison.Ordinal)) return line[slash..];
        }
        return null;
    }
}
