using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Cli.Tests.Plugins;

/// <summary>
/// samples/CustomClient built as a user builds it: KafkaPerf.Core packed into a folder feed, the sample copied out of the
/// repository and published against it. Its Confluent.Kafka comes from the machine's package cache through that feed's
/// configuration, so nothing but KafkaPerf.Core is built here.
/// </summary>
public sealed class SamplePlugin : IAsyncLifetime
{
    private readonly DirectoryInfo _work = Directory.CreateTempSubdirectory("kafkaperf-plugin-");

    /// <summary>The published plugin's folder.</summary>
    public string Folder => Path.Combine(_work.FullName, "plugin");

    /// <summary>A folder for a test's own files (results, a client version's cache), deleted with the fixture.</summary>
    public string Scratch(string name)
    {
        var folder = Path.Combine(_work.FullName, "scratch", name + "-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(folder);
        return folder;
    }

    /// <inheritdoc />
    public async ValueTask InitializeAsync()
    {
        var root = ExternalProcess.RepositoryRoot();
        var feed = Path.Combine(_work.FullName, "feed");
        var pack = await ExternalProcess.RunAsync(root, new Dictionary<string, string?>(), "dotnet", "pack", Path.Combine(root, "src", "KafkaPerf.Core"),
            "-c", "Release", "--no-build", "-o", feed, "-v", "q", "-nologo", $"-p:NuspecOutputPath={Path.Combine(_work.FullName, "nuspec")}/");
        Assert.True(pack.Exit == 0, pack.Output);
        var sample = Path.Combine(_work.FullName, "CustomClient");
        Directory.CreateDirectory(sample);
        foreach (var file in Directory.EnumerateFiles(Path.Combine(root, "samples", "CustomClient")).Where(f => f.EndsWith(".cs", StringComparison.Ordinal) || f.EndsWith(".csproj", StringComparison.Ordinal)))
            File.Copy(file, Path.Combine(sample, Path.GetFileName(file)));
        foreach (var file in new[] { "Directory.Build.props", "Directory.Packages.props" })
            File.Copy(Path.Combine(root, "samples", file), Path.Combine(_work.FullName, file));
        // KafkaPerf.Core from the feed (into a package folder of its own, so no stale copy is used); the rest through the
        // machine's own package folder, then its sources.
        var machinePackages = Environment.GetEnvironmentVariable("NUGET_PACKAGES") is { Length: > 0 } p ? p
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".nuget", "packages");
        File.WriteAllText(Path.Combine(_work.FullName, "nuget.config"),
            $"<configuration><packageSources><add key=\"kafkaperf-local\" value=\"{feed}\" /><add key=\"machine-cache\" value=\"{machinePackages}\" /></packageSources></configuration>");
        var environment = new Dictionary<string, string?> { ["NUGET_PACKAGES"] = Path.Combine(_work.FullName, "packages") };
        var publish = await ExternalProcess.RunAsync(sample, environment, "dotnet", "publish", "-c", "Release", "-o", Folder, "-nologo", "-v", "q");
        Assert.True(publish.Exit == 0, publish.Output);
        Assert.True(File.Exists(Path.Combine(Folder, "CustomClient.dll")), publish.Output);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        try
        {
            _work.Delete(recursive: true);
        }
        catch (IOException)
        {
        }
        return ValueTask.CompletedTask;
    }
}
