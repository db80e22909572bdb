using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>
/// KafkaPerf's packages in a local folder feed, packed once for the whole test assembly (an assembly fixture) by the
/// script a user runs, <c>eng/pack.sh --no-build --output FEED</c>: it packs what the Release build made (CI builds
/// KafkaPerf.sln -c Release before it tests; this project's references build every packed project when it is built
/// alone), so packing takes seconds, not a build. The tests restore from it into one fresh package folder
/// (<c>NUGET_PACKAGES</c>), so that a KafkaPerf of the same version left in the machine's package cache by an earlier
/// pack is never restored instead of this build's. Everything is made under one temporary folder, deleted at the end.
/// </summary>
public sealed class LocalFeedFixture : IAsyncLifetime
{
    private static readonly TimeSpan PackTimeout = TimeSpan.FromMinutes(5);
    private readonly DirectoryInfo _work = Directory.CreateTempSubdirectory("kafkaperf-feed-");

    /// <summary>The repository this test runs from.</summary>
    public string Root { get; } = ExternalProcess.RepositoryRoot();

    /// <summary>The folder feed: every KafkaPerf package and its symbol package.</summary>
    public string Feed => Path.Combine(_work.FullName, "feed");

    /// <summary>
    /// The environment of every command the tests run as a user would: this test process's, with the one package
    /// folder of the fixture as <c>NUGET_PACKAGES</c>, and without <c>DOTNET_EnableAlternateStackCheck</c>, which the test
    /// host has from tests/kafkaperf.runsettings but a user's shell has not: what needs it must set it itself.
    /// </summary>
    public IReadOnlyDictionary<string, string?> Environment => new Dictionary<string, string?>
    {
        ["NUGET_PACKAGES"] = Path.Combine(_work.FullName, "packages"),
        ["DOTNET_EnableAlternateStackCheck"] = null,
    };

    /// <summary>A new empty folder for one test, deleted with the fixture.</summary>
    /// <param name="name">What it is for (its name starts with it).</param>
    public string Folder(string name) => Directory.CreateDirectory(Path.Combine(_work.FullName, name + "-" + Guid.NewGuid().ToString("N")[..8])).FullName;

    /// <summary>
    /// A new folder with what a fresh clone of this repository holds — the files git tracks, and new files it does not
    /// ignore, as they are in the working tree (so the tests see uncommitted work) — with <c>artifacts/packages</c>
    /// filled with the fixture's feed, as <c>eng/pack.sh</c> fills it. Nothing of the build (bin/, obj/, artifacts/) comes
    /// along.
    /// </summary>
    /// <param name="name">What it is for.</param>
    public async Task<string> CopyOfRepositoryAsync(string name)
    {
        var copy = Folder(name);
        var files = await ExternalProcess.RunAsync(Root, new Dictionary<string, string?>(), TimeSpan.FromMinutes(1), "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard");
        Assert.True(files.Exit == 0, "git ls-files: " + files.Output);
        foreach (var path in files.Stdout.Split('\0', StringSplitOptions.RemoveEmptyEntries))
        {
            var source = Path.Combine(Root, path);
            // A file deleted in the working tree but still in the index is not there in a clone of the work either.
            if (!File.Exists(source)) continue;
            var target = Path.Combine(copy, path);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(source, target);
        }
        var packages = Directory.CreateDirectory(Path.Combine(copy, "artifacts", "packages")).FullName;
        foreach (var package in Directory.EnumerateFiles(Feed)) File.Copy(package, Path.Combine(packages, Path.GetFileName(package)));
        return copy;
    }

    /// <summary>Runs a command as a user would, in <see cref="Environment"/>; at most 10 minutes.</summary>
    /// <param name="directory">Where it runs.</param>
    /// <param name="file">The program.</param>
    /// <param name="args">Its arguments.</param>
    /// <returns>Its exit code and everything it wrote.</returns>
    public async Task<(int Exit, string Output)> RunAsync(string directory, string file, params string[] args)
    {
        var run = await ExternalProcess.RunAsync(directory, Environment, TimeSpan.FromMinutes(10), file, args);
        return (run.Exit, run.Output);
    }

    /// <inheritdoc />
    public async ValueTask InitializeAsync()
    {
        // The machine's own package folder here: --no-build restores nothing, and a restore of the repository's projects
        // into another folder would make their build out of date.
        var pack = await ExternalProcess.RunAsync(Root, new Dictionary<string, string?>(), PackTimeout, "bash", Path.Combine(Root, "eng", "pack.sh"), "--no-build", "--output", Feed);
        Assert.True(pack.Exit == 0, "eng/pack.sh --no-build packs the Release build: build KafkaPerf.sln -c Release first.\n" + pack.Output);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _work.Delete(recursive: true);
        return ValueTask.CompletedTask;
    }
}
