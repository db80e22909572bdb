using System.Reflection;
using System.Runtime.InteropServices;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// Binds Confluent.Kafka to its native librdkafka, once per process, before any client exists, and records which file
/// that is. By default Confluent.Kafka loads the native file of the <c>librdkafka.redist</c> package itself, exactly as
/// in its users' applications (on Debian 12: <c>runtimes/linux-x64/native/centos8-librdkafka.so</c>, because the main
/// <c>librdkafka.so</c> needs a <c>libsasl2.so.3</c> that Debian lacks); <c>KAFKAPERF_LIBRDKAFKA</c> names another build.
/// One older than the version Confluent.Kafka is built for is refused (it crashes Confluent.Kafka); any other version
/// than that one runs with a warning in the result.
/// </summary>
/// <remarks>Thread-safe. A failure is remembered: every later call throws the same one-line error.</remarks>
public static unsafe class ConfluentNativeLibrary
{
    /// <summary>The variable that names a librdkafka shared library explicitly.</summary>
    public const string PathVariable = "KAFKAPERF_LIBRDKAFKA";

    private static readonly Lock Gate = new();

    /// <summary>Whether <see cref="PathVariable"/> is ignored: set in a load context of another Confluent.Kafka version,
    /// which runs on that version's own librdkafka whatever the variable says.</summary>
    public static bool PackagedOnly { get; set; }
    private static LibrdkafkaBinding? _binding;
    private static PrerequisiteException? _failure;

    /// <summary>The version of the managed Confluent.Kafka assembly.</summary>
    public static string ManagedVersion =>
        typeof(Library).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0]
        ?? typeof(Library).Assembly.GetName().Version?.ToString(3) ?? "unknown";

    /// <summary>The librdkafka version Confluent.Kafka is built and tested against: the same version number, which is
    /// the <c>librdkafka.redist</c> version its package depends on.</summary>
    public static string ExpectedVersion => ManagedVersion;

    /// <summary>Binds librdkafka if not done yet.</summary>
    /// <returns>What was loaded, from where.</returns>
    /// <exception cref="PrerequisiteException">No usable librdkafka; the message says what to set.</exception>
    public static LibrdkafkaBinding EnsureLoaded()
    {
        lock (Gate)
        {
            if (_binding is not null) return _binding;
            if (_failure is not null) throw _failure;
            try
            {
                _binding = !PackagedOnly && Environment.GetEnvironmentVariable(PathVariable) is { Length: > 0 } explicitPath ? LoadExplicit(explicitPath) : LoadPackaged();
                return _binding;
            }
            catch (PrerequisiteException ex)
            {
                _failure = ex;
                throw;
            }
        }
    }

    /// <summary>Lets Confluent.Kafka load librdkafka as it does in any application (from <c>librdkafka.redist</c>), then
    /// finds out which file it took.</summary>
    private static LibrdkafkaBinding LoadPackaged()
    {
        string version;
        try
        {
            // Reading the version makes Confluent.Kafka initialise its bindings with its own loader.
            version = Library.VersionString;
        }
        catch (Exception ex) when (ex is DllNotFoundException or InvalidOperationException or EntryPointNotFoundException
                                       or FileLoadException or TypeInitializationException or BadImageFormatException)
        {
            throw new PrerequisiteException(
                $"Confluent.Kafka could not load the librdkafka of its librdkafka.redist package ({FirstLine(ex)}): set {PathVariable} to a librdkafka {ExpectedVersion} shared library.", ex);
        }
        // The file Confluent.Kafka's own bindings use: found through this assembly's load context (the host's, or that of
        // a plugin with a Confluent.Kafka of its own), not from the process's memory map, which may hold several.
        var (bound, handle) = BoundFile(version);
        var path = bound ?? LoadedFile() ?? Path.Combine(AppContext.BaseDirectory, "runtimes");
        if (handle == IntPtr.Zero && !NativeLibrary.TryLoad(path, out handle))
        {
            // The same file is already in the process: this only takes another reference to it, for the config dump's
            // function pointers. Without a path (not Linux) the exports come from Confluent.Kafka's own library name.
            handle = NativeLibrary.Load("librdkafka", typeof(Library).Assembly, null);
        }
        var origin = path.Contains($"{Path.DirectorySeparatorChar}runtimes{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
            ? LibrdkafkaOrigin.Redist : LibrdkafkaOrigin.OperatingSystem;
        return Checked(version, path, origin, handle);
    }

    /// <summary>Binds Confluent.Kafka to the named file. Not through <c>Library.Load</c>: on Linux it dlopens through an
    /// unversioned <c>libdl</c>, which glibc 2.34 and later (Debian 12) no longer provide, so it fails there.</summary>
    private static LibrdkafkaBinding LoadExplicit(string explicitPath)
    {
        IntPtr handle;
        try
        {
            handle = NativeLibrary.Load(explicitPath);
        }
        catch (Exception ex) when (ex is DllNotFoundException or BadImageFormatException or ArgumentException)
        {
            throw new PrerequisiteException(
                $"{PathVariable} is '{explicitPath}', which could not be loaded as librdkafka: point it at a librdkafka shared library (e.g. librdkafka.so.1), or unset it to use the librdkafka.redist package's.", ex);
        }
        var path = Path.GetFullPath(explicitPath);
        // Every DllImport of Confluent.Kafka ("librdkafka") resolves to the one library chosen here.
        NativeLibrary.SetDllImportResolver(typeof(Library).Assembly, (name, _, _) =>
            name.Contains("rdkafka", StringComparison.OrdinalIgnoreCase) ? handle : IntPtr.Zero);
        try
        {
            var version = Library.VersionString;
            // If Confluent.Kafka was initialised before this binding (by code that used it first), it runs on another
            // library than the one chosen here, and the results would name the wrong one.
            var chosen = Marshal.PtrToStringUTF8(((delegate* unmanaged[Cdecl]<IntPtr>)NativeLibrary.GetExport(handle, "rd_kafka_version_str"))());
            if (chosen != version)
                throw new PrerequisiteException(
                    $"Confluent.Kafka already runs on librdkafka {version}, not on the chosen {chosen} at '{path}': bind it before any Confluent.Kafka client is created (ConfluentNativeLibrary.EnsureLoaded()).");
            return Checked(version, path, LibrdkafkaOrigin.Variable, handle);
        }
        catch (Exception ex) when (ex is InvalidOperationException or EntryPointNotFoundException or DllNotFoundException
                                       or FileLoadException or TypeInitializationException)
        {
            throw new PrerequisiteException(
                $"librdkafka at '{path}' could not be used by Confluent.Kafka ({FirstLine(ex)}): set {PathVariable} to a librdkafka {ExpectedVersion} library, or unset it to use the librdkafka.redist package's.", ex);
        }
    }

    private static LibrdkafkaBinding Checked(string version, string path, LibrdkafkaOrigin origin, IntPtr handle)
    {
        if (TooOld(version) is { } tooOld)
            throw new PrerequisiteException($"librdkafka {version} at '{path}' (from {LibrdkafkaBinding.Name(origin)}) {tooOld}");
        return new LibrdkafkaBinding(version, path, origin, handle) { Features = LibrdkafkaConfigDump.BuiltinFeatures(handle) };
    }

    /// <summary>Why a librdkafka version cannot run Confluent.Kafka, or <see langword="null"/> when it can.</summary>
    /// <param name="version">A version such as <c>2.0.2</c>.</param>
    /// <returns>The rest of a one-line error, or <see langword="null"/>.</returns>
    /// <remarks>Confluent.Kafka calls functions and struct layouts an older librdkafka lacks: with Debian's 2.0.2, a
    /// produce crashed the process in <c>rd_kafka_AdminOptions_set_request_timeout</c> and a roundtrip threw
    /// <c>EntryPointNotFoundException</c> (rd_kafka_topic_partition_get_leader_epoch). A library older than the
    /// expected major.minor is therefore refused; a newer one runs, with a warning in the result.</remarks>
    public static string? TooOld(string version)
    {
        if (!TryMajorMinor(version, out var actual) || !TryMajorMinor(ExpectedVersion, out var expected)) return null;
        return actual.CompareTo(expected) >= 0 ? null
            : $"is older than {ExpectedVersion}, which Confluent.Kafka {ManagedVersion} is built for, and crashes it: unset {PathVariable} to use the librdkafka.redist package's, or point it at a librdkafka {ExpectedVersion} library.";
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

    /// <summary>The library Confluent.Kafka's <c>DllImport</c>s bind to, by the names it tries in its order, resolved through
    /// its assembly's load context, and the file that holds it (by the address of its <c>rd_kafka_version_str</c>): the
    /// one whose version is <paramref name="version"/>.</summary>
    private static (string? Path, IntPtr Handle) BoundFile(string version)
    {
        foreach (var name in new[] { "librdkafka", "centos8-librdkafka", "alpine-librdkafka" })
        {
            IntPtr handle;
            try
            {
                if (!NativeLibrary.TryLoad(name, typeof(Library).Assembly, null, out handle)) continue;
            }
            catch (Exception ex) when (ex is DllNotFoundException or BadImageFormatException)
            {
                continue;
            }
            if (!NativeLibrary.TryGetExport(handle, "rd_kafka_version_str", out var export)) continue;
            if (Marshal.PtrToStringUTF8(((delegate* unmanaged[Cdecl]<IntPtr>)export)()) != version) continue;
            return (FileOf(export), handle);
        }
        return (null, IntPtr.Zero);
    }

    /// <summary>The file of a loaded library that holds <paramref name="address"/> (<c>dladdr</c>); <see langword="null"/>
    /// where that cannot be asked.</summary>
    private static string? FileOf(IntPtr address)
    {
        foreach (var libc in new[] { "libc.so.6", "libdl.so.2" })
        {
            if (!NativeLibrary.TryLoad(libc, out var library)) continue;
            if (!NativeLibrary.TryGetExport(library, "dladdr", out var dladdr)) continue;
            DlInfo info;
            if (((delegate* unmanaged[Cdecl]<IntPtr, DlInfo*, int>)dladdr)(address, &info) != 0 && info.FileName != IntPtr.Zero)
                return Marshal.PtrToStringUTF8(info.FileName);
        }
        return null;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct DlInfo
    {
        public IntPtr FileName;
        public IntPtr FileBase;
        public IntPtr SymbolName;
        public IntPtr SymbolAddress;
    }

    /// <summary>The librdkafka file mapped into this process (Linux), from its memory map.</summary>
    private static string? LoadedFile()
    {
        const string maps = "/proc/self/maps";
        if (!File.Exists(maps)) return null;
        foreach (var line in File.ReadLines(maps))
        {
            int slash = line.IndexOf('/', StringComparison.Ordinal);
            if (slash >= 0 && Path.GetFileName(line.AsSpan(slash)).Contains("librdkafka", StringComparison.Ordinal)) return line[slash..];
        }
        return null;
    }

    private static string FirstLine(Exception ex) => ex.Message.Split('\n')[0].TrimEnd('.', '\r');
}
