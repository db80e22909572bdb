using System.Text.RegularExpressions;
using KafkaPerf.Clients;
using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Cli.Tests;

/// <summary>One version, seen the same everywhere: the tool's <c>--version</c>, the release its results record, the
/// packages' version (Directory.Build.props) and, in its major.minor, the client contract's.</summary>
public partial class VersionTests
{
    [Fact]
    public async Task Version_AsAUserRunsIt_PrintsTheReleaseOfThePackagesAndTheContract()
    {
        var (exit, stdout, stderr) = await CliProcess.RunAsync(null, "--version");

        Assert.Equal(0, exit);
        Assert.Equal(string.Empty, stderr);
        // Exactly one line: the release, without System.CommandLine's informational version's +commit suffix.
        Assert.Equal(ClientContract.Release + Environment.NewLine, stdout);
        Assert.StartsWith($"{ClientContract.Version.Major}.{ClientContract.Version.Minor}.", stdout, StringComparison.Ordinal);
        var props = File.ReadAllText(Path.Combine(ExternalProcess.RepositoryRoot(), "Directory.Build.props"));
        Assert.Equal(PackageVersion().Match(props).Groups[1].Value, stdout.TrimEnd());
    }

    [GeneratedRegex("<Version>([^<]+)</Version>")]
    private static partial Regex PackageVersion();
}
