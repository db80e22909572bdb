using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.Json;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Plugins;

/// <summary>
/// Another version of a built-in client beside the default one: <c>confluent@2.15.1</c> (and its styles,
/// <c>confluent-async@2.15.1</c>, …) is this tool's own Confluent adapter on Confluent.Kafka 2.15.1 and that version's
/// librdkafka.redist, in a load context of its own. The packages are restored once through NuGet from the user's
/// configured sources (a generated project, <c>dotnet publish</c>) into a cache folder; on a machine without a source,
/// <see cref="PrepareAsync"/> makes the same folder elsewhere, and <c>--plugin FOLDER</c> loads it.
/// </summary>
public static class ClientVersions
{
    /// <summary>The variable that names the cache folder of client versions (default: the user's cache folder).</summary>
    public const string CacheVariable = "KAFKAPERF_CLIENT_CACHE";

    /// <summary>The file that makes a folder a client version's.</summary>
    public const string MarkerFile = "kafkaperf-client.json";

    private const string Family = "confluent";
    private const string Package = "Confluent.Kafka";
    private static readonly TimeSpan RestoreTimeout = TimeSpan.FromMinutes(5);

    /// <summary>Whether a client name asks for a version: <c>NAME@VERSION</c>.</summary>
    /// <param name="name">A client name from a plan.</param>
    /// <returns><see langword="true"/> when it holds an <c>@</c>.</returns>
    public static bool IsVersioned(string name) => name?.Contains('@', StringComparison.Ordinal) == true;

    /// <summary>The version a versioned name asks for, checked.</summary>
    /// <param name="name">E.g. <c>confluent-async@2.15.1</c>.</param>
    /// <returns>The version, e.g. <c>2.15.1</c>.</returns>
    /// <exception cref="PluginException">Not a client this tool can run in another version, or not a version; one line.</exception>
    public static string VersionOf(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        int at = name.IndexOf('@', StringComparison.Ordinal);
        var client = name[..at];
        var version = name[(at + 1)..];
        if (!client.Equals(Family, StringComparison.OrdinalIgnoreCase) && !client.StartsWith(Family + "-", StringComparison.OrdinalIgnoreCase))
            throw new PluginException(client.StartsWith("java", StringComparison.OrdinalIgnoreCase)
                ? $"'{name}': java runs the one Apache Kafka client whose jars KafkaPerf fetched; another version beside it is not built (docs/clients.md says what it would take)."
                : $"'{name}': only confluent and its styles run in another version (confluent@2.15.1, confluent-async@2.15.1, …).");
        if (!NuGetVersion(version))
            throw new PluginException($"'{name}': '{version}' is not a package version: write e.g. {client}@2.15.1.");
        return version;
    }

    /// <summary>The registry with the client versions <paramref name="names"/> ask for that it lacks (a plan's
    /// <c>confluent@2.15.1</c>), restored once into the cache.</summary>
    /// <param name="registry">The clients so far.</param>
    /// <param name="names">The names a plan uses.</param>
    /// <param name="log">Progress lines (a first restore takes seconds), or <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops a restore.</param>
    /// <returns>The registry.</returns>
    /// <exception cref="PluginException">A version cannot be restored or loaded; one line.</exception>
    public static async Task<ClientRegistry> AddToAsync(ClientRegistry registry, IEnumerable<string> names, TextWriter? log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(registry);
        ArgumentNullException.ThrowIfNull(names);
        var versions = names.Where(n => IsVersioned(n) && !registry.TryGet(n, out _)).Select(VersionOf).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
        foreach (var version in versions)
        {
            var clients = await LoadAsync(version, log, cancellationToken).ConfigureAwait(false);
            var known = registry;
            registry = registry.With(clients.Where(c => !known.TryGet(c.Factory.Name, out _)).Select(c => (c.Factory, c.Origin)));
        }
        return registry;
    }

    /// <summary>The cache folder of client versions: <see cref="CacheVariable"/>, else the user's cache folder.</summary>
    public static string CacheFolder =>
        Environment.GetEnvironmentVariable(CacheVariable) is { Length: > 0 } folder ? Path.GetFullPath(folder)
        : Path.Combine(Environment.GetEnvironmentVariable("XDG_CACHE_HOME") is { Length: > 0 } xdg ? xdg
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache"), "kafkaperf", "clients");

    /// <summary>Whether a folder is a client version's (it holds <see cref="MarkerFile"/>).</summary>
    /// <param name="folder">The folder.</param>
    /// <returns><see langword="true"/> when it is.</returns>
    public static bool IsVersionFolder(string folder) => File.Exists(Path.Combine(folder, MarkerFile));

    /// <summary>The clients of a version, from the cache (restored into it the first time).</summary>
    /// <param name="version">The Confluent.Kafka version, e.g. <c>2.15.1</c>.</param>
    /// <param name="log">Progress lines (a restore takes seconds), or <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the restore.</param>
    /// <returns>Every style of the client on that version, named <c>STYLE@VERSION</c>.</returns>
    /// <exception cref="PluginException">It cannot be restored or loaded; one line.</exception>
    public static async Task<IReadOnlyList<PluginClient>> LoadAsync(string version, TextWriter? log, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(CacheFolder, $"{Family}-{version}-{RuntimeInformation.RuntimeIdentifier}");
        if (!IsVersionFolder(folder)) await PrepareAsync(version, folder, log, cancellationToken).ConfigureAwait(false);
        return Load(folder);
    }

    /// <summary>Restores Confluent.Kafka <paramref name="version"/> and its librdkafka.redist from the user's NuGet sources
    /// into <paramref name="folder"/>, with this tool's Confluent adapter: a folder <c>--plugin</c> loads.</summary>
    /// <param name="version">The version.</param>
    /// <param name="folder">Where; made whole or not at all.</param>
    /// <param name="log">Progress lines, or <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the restore.</param>
    /// <returns>A task that completes when the folder is ready.</returns>
    /// <exception cref="PluginException">The SDK is missing, or the version cannot be restored; one line.</exception>
    public static async Task PrepareAsync(string version, string folder, TextWriter? log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(version);
        ArgumentNullException.ThrowIfNull(folder);
        var full = Path.GetFullPath(folder);
        var parent = Path.GetDirectoryName(full)!;
        Directory.CreateDirectory(parent);
        var work = Path.Combine(parent, $".kafkaperf-restore-{Guid.NewGuid():N}");
        var staging = Path.Combine(work, "out");
        Directory.CreateDirectory(work);
        try
        {
            // A project of its own, outside any repository: no enclosing Directory.Build.props, central package versions or
            // warnings-as-errors applies to it.
            foreach (var empty in new[] { "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props" })
                await File.WriteAllTextAsync(Path.Combine(work, empty), "<Project />\n", cancellationToken).ConfigureAwait(false);
            await File.WriteAllTextAsync(Path.Combine(work, "client.csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFramework>net{Environment.Version.Major}.0</TargetFramework>
                    <EnableDynamicLoading>true</EnableDynamicLoading>
                    <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
                    <TreatWarningsAsErrors>false</TreatWarningsAsErrors>
                  </PropertyGroup>
                  <ItemGroup>
                    <PackageReference Include="{Package}" Version="[{version}]" />
                  </ItemGroup>
                </Project>
                """, cancellationToken).ConfigureAwait(false);
            log?.WriteLine($"kafkaperf: restoring {Package} {version} from your NuGet sources (once; then kept in {parent})");
            var (exit, output) = await DotnetAsync(work, ["publish", "client.csproj", "-c", "Release", "-r", RuntimeInformation.RuntimeIdentifier,
                "--self-contained", "false", "-o", staging, "--nologo", "-v", "q"], cancellationToken).ConfigureAwait(false);
            if (exit != 0)
            {
                var error = output.Split('\n').Select(l => l.Trim()).FirstOrDefault(l => l.Contains("error", StringComparison.OrdinalIgnoreCase)) ?? output.Trim();
                throw new PluginException($"{Package} {version} could not be restored from your NuGet sources ({Shorten(error)}): name a version they serve, or prepare it where one is reachable (dotnet kafkaperf prepare-client confluent@{version} --output DIR) and pass --plugin DIR.");
            }
            var warnings = output.Split('\n').Select(l => l.Trim()).Where(l => l.Contains("warning NU", StringComparison.Ordinal)).Select(Shorten).Distinct().ToList();
            // The folder holds the packages only: the adapter that runs them is always the running tool's own (Load), so a
            // folder outlives an update of the tool, and a cached one never runs an older adapter.
            File.Delete(Path.Combine(staging, "client.dll"));
            var marker = new VersionMarker(Family, Package, version, RuntimeInformation.RuntimeIdentifier, Restored(staging), warnings);
            await File.WriteAllTextAsync(Path.Combine(staging, MarkerFile), JsonSerializer.Serialize(marker, MarkerJson), cancellationToken).ConfigureAwait(false);
            try
            {
                Directory.Move(staging, full);
            }
            catch (IOException) when (IsVersionFolder(full))
            {
                // Another process made it meanwhile: that one is used.
            }
        }
        finally
        {
            try
            {
                Directory.Delete(work, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }

    /// <summary>Loads a client version's folder: the tool's Confluent adapter in a context of its own, with the folder's
    /// Confluent.Kafka and librdkafka.</summary>
    /// <param name="folder">A folder made by <see cref="PrepareAsync"/>.</param>
    /// <returns>Every style, named <c>STYLE@VERSION</c>.</returns>
    /// <exception cref="PluginException">It cannot be loaded; one line.</exception>
    public static IReadOnlyList<PluginClient> Load(string folder)
    {
        ArgumentNullException.ThrowIfNull(folder);
        folder = Path.GetFullPath(folder);
        VersionMarker marker;
        try
        {
            marker = JsonSerializer.Deserialize<VersionMarker>(File.ReadAllText(Path.Combine(folder, MarkerFile)), MarkerJson)
                ?? throw new JsonException("empty");
        }
        catch (Exception ex) when (ex is JsonException or IOException)
        {
            throw new PluginException($"'{Path.Combine(folder, MarkerFile)}' cannot be read ({ex.Message.TrimEnd('.')}): prepare the folder again (dotnet kafkaperf prepare-client).", ex);
        }
        if (marker.Runtime != RuntimeInformation.RuntimeIdentifier)
            throw new PluginException($"'{folder}' holds {marker.Package} {marker.Version} for {marker.Runtime}, and this machine is {RuntimeInformation.RuntimeIdentifier}: prepare it for this machine.");
        // The running tool's adapter, in a context whose other assemblies and native libraries come from the folder.
        var adapter = typeof(ClientVersions).Assembly.Location;
        var context = new PluginLoadContext($"client:{marker.Family}@{marker.Version}", Path.Combine(folder, Path.GetFileName(adapter)));
        try
        {
            var assembly = context.LoadFromAssemblyPath(adapter);
            // The folder's own librdkafka, whatever KAFKAPERF_LIBRDKAFKA says: that is the point of a version.
            assembly.GetType("KafkaPerf.Adapters.Confluent.ConfluentNativeLibrary", throwOnError: true)!
                .GetProperty("PackagedOnly")!.SetValue(null, true);
            var optionsType = assembly.GetType("KafkaPerf.Adapters.Confluent.ConfluentClientOptions", throwOnError: true)!;
            var options = Activator.CreateInstance(optionsType)!;
            optionsType.GetProperty("NameSuffix")!.SetValue(options, "@" + marker.Version);
            var styles = (System.Collections.IEnumerable)assembly.GetType("KafkaPerf.Adapters.Confluent.ConfluentClientFactory", throwOnError: true)!
                .GetMethod("AllStyles")!.Invoke(null, [options])!;
            var origin = $"{folder} ({string.Join(", ", marker.Restored)}{string.Concat(marker.Warnings.Select(w => "; restore said: " + w))})";
            return [.. styles.Cast<IBenchClientFactory>().Select(f => new PluginClient(f, origin))];
        }
        catch (Exception ex) when (ex is FileLoadException or FileNotFoundException or BadImageFormatException or TypeLoadException
                                       or MissingMemberException or TargetInvocationException or InvalidCastException)
        {
            throw new PluginException($"{marker.Package} {marker.Version} in '{folder}' could not be loaded ({(ex.InnerException ?? ex).Message.Split('\n')[0].TrimEnd('.')}): prepare the folder again with this KafkaPerf.", ex);
        }
    }

    /// <summary>The packages a restore put in the folder, e.g. <c>Confluent.Kafka 2.15.1</c>, <c>librdkafka.redist 2.15.1</c>.</summary>
    private static List<string> Restored(string folder)
    {
        var deps = Path.Combine(folder, "client.deps.json");
        if (!File.Exists(deps)) return [];
        using var json = JsonDocument.Parse(File.ReadAllText(deps));
        return [.. json.RootElement.GetProperty("libraries").EnumerateObject()
            .Where(l => l.Value.TryGetProperty("type", out var type) && type.GetString() == "package")
            .Select(l => l.Name.Replace('/', ' '))];
    }

    private static async Task<(int Exit, string Output)> DotnetAsync(string folder, string[] arguments, CancellationToken cancellationToken)
    {
        var dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host) ? host : "dotnet";
        var start = new ProcessStartInfo(dotnet) { WorkingDirectory = folder, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        ChildEnvironment.RemoveSecrets(start);
        Process process;
        try
        {
            process = Process.Start(start) ?? throw new PluginException("dotnet did not start.");
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new PluginException($"Restoring a client version needs the .NET SDK (dotnet publish), and '{dotnet}' could not be started ({ex.Message.TrimEnd('.')}): install the .NET SDK, or prepare the client on a machine that has it and pass --plugin DIR.", ex);
        }
        using (process)
        {
            var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var error = process.StandardError.ReadToEndAsync(cancellationToken);
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(RestoreTimeout);
            try
            {
                await process.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                if (cancellationToken.IsCancellationRequested) throw;
                throw new PluginException($"dotnet publish did not finish within {RestoreTimeout.TotalMinutes:0} minutes: check your NuGet sources.");
            }
            return (process.ExitCode, await output.ConfigureAwait(false) + await error.ConfigureAwait(false));
        }
    }

    private static bool NuGetVersion(string version) =>
        version.Length > 0 && char.IsAsciiDigit(version[0]) && version.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '+');

    private static string Shorten(string line)
    {
        // Drop the project path msbuild puts in front of its messages, and the project in brackets after them.
        var text = line;
        int colon = text.IndexOf(": ", StringComparison.Ordinal);
        if (colon > 0 && text[..colon].Contains(Path.DirectorySeparatorChar, StringComparison.Ordinal)) text = text[(colon + 2)..];
        int bracket = text.LastIndexOf(" [", StringComparison.Ordinal);
        if (bracket > 0) text = text[..bracket];
        return text.Length > 300 ? text[..300] + "…" : text;
    }

    private static readonly JsonSerializerOptions MarkerJson = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    /// <summary>What <see cref="MarkerFile"/> says of a client version's folder.</summary>
    private sealed record VersionMarker(string Family, string Package, string Version, string Runtime, IReadOnlyList<string> Restored, IReadOnlyList<string> Warnings);
}
