using System.Text.RegularExpressions;

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>
/// Every sample's README, run as written, so that its commands cannot drift from what works. A README's commands are the
/// first <c>```sh</c> block after its <c>&lt;!-- sample-commands --&gt;</c> marker, typed at the repository's root of a
/// fresh clone after <c>eng/install-prerequisites.sh</c>. The test runs that block with bash (<c>-e -o pipefail</c>: a
/// failing command fails it, as a reader would stop there) at the root of a copy of the repository
/// (<see cref="LocalFeedFixture.CopyOfRepositoryAsync"/>), with two adjustments, and no other:
/// <list type="bullet">
/// <item>The block's first command must be <c>eng/pack.sh</c>; the test leaves that one line out, because the copy's
/// <c>artifacts/packages</c> already holds what it makes: the fixture ran the same script (<c>--no-build</c>) on this
/// repository's Release build. Run as written in a copy, it would build every project from nothing first (minutes);
/// run in the repository itself, it would restore the repository's projects into the fresh package folder below and
/// make their build out of date.</item>
/// <item>The environment (<see cref="LocalFeedFixture.Environment"/>): a fresh <c>NUGET_PACKAGES</c>, and no
/// <c>DOTNET_EnableAlternateStackCheck</c> unless the block exports it; everything else (such as
/// <c>KAFKAPERF_MAVEN_MIRROR</c>) passes through.</item>
/// </list>
/// The commands' runs are small on purpose (a sample, not a measurement), so each test takes about a minute.
/// </summary>
[Collection(LocalFeedCollectionDefinition.Name)]
public sealed class SampleReadmeTests(LocalFeedFixture feed)
{
    private const string Marker = "<!-- sample-commands -->";

    [Fact]
    public async Task CustomClientReadme_RunAsWritten_ListsThePluginAndRunsItWithoutLoss()
    {
        var output = await RunReadmeAsync("CustomClient");

        // clients --plugin: the plugin's client, where it came from, and that it can run here.
        Assert.Matches(new Regex(@"^orders-json +needs a broker .*\n +from: \S*/artifacts/plugins/orders/CustomClient\.dll\n(?: +.*\n)*? +ready$", RegexOptions.Multiline), output);
        // run: the roundtrip's row of orders-json, one run, none failed, no record lost or duplicated.
        Assert.Matches(new Regex(@"^\| roundtrip \| defaults \| orders-json \| 1 000 \| 1 000 \| 1 \| 0 \|.*\| 0 \| 0 \|$", RegexOptions.Multiline), output);
    }

    [Fact]
    public async Task ConsoleComparisonReadme_RunAsWritten_PrintsBothClientsTables()
    {
        var output = await RunReadmeAsync("ConsoleComparison");

        Assert.Matches(new Regex(@"^\| java \| Apache Kafka client 4\.3\.1 ", RegexOptions.Multiline), output);
        Assert.Matches(new Regex(@"^\| consume \| acks=0 [^|]*\| java \| 10 000 \| 1 000 \| 1 \| 0 \|.*\| 0 \| 0 \|$", RegexOptions.Multiline), output);
    }

    [Fact]
    public async Task PerformanceTestsReadme_RunAsWritten_PassesOnTheEmbeddedBroker()
    {
        var output = await RunReadmeAsync("PerformanceTests");

        Assert.Matches(new Regex(@"^Passed! +- Failed: +0, Passed: +1, ", RegexOptions.Multiline), output);
    }

    /// <summary>Runs the sample's README block in a copy of the repository and returns everything it wrote; fails the
    /// test if a command fails.</summary>
    private async Task<string> RunReadmeAsync(string sample)
    {
        var commands = Commands(File.ReadAllText(Path.Combine(feed.Root, "samples", sample, "README.md")), sample);
        var copy = await feed.CopyOfRepositoryAsync(sample);
        // Beside the copy, not in it: the copy stays what a clone holds.
        var script = Path.Combine(Path.GetDirectoryName(copy)!, sample + "-commands.sh");
        File.WriteAllText(script, commands);

        var run = await feed.RunAsync(copy, "bash", "-e", "-o", "pipefail", "-x", script);

        Assert.True(run.Exit == 0, $"samples/{sample}/README.md's commands failed (exit code {run.Exit}):\n{run.Output}");
        return run.Output;
    }

    /// <summary>The README's commands, with its first command (eng/pack.sh) left out: see the class's summary.</summary>
    private static string Commands(string readme, string sample)
    {
        var marker = readme.IndexOf(Marker, StringComparison.Ordinal);
        Assert.True(marker >= 0 && readme.IndexOf(Marker, marker + 1, StringComparison.Ordinal) < 0,
            $"samples/{sample}/README.md must mark its commands once with {Marker} before their ```sh block");
        var start = readme.IndexOf("```sh\n", marker, StringComparison.Ordinal);
        Assert.True(start >= 0, $"samples/{sample}/README.md has no ```sh block after {Marker}");
        start += "```sh\n".Length;
        var end = readme.IndexOf("\n```", start - 1, StringComparison.Ordinal);
        var lines = readme[start..end].Split('\n').ToList();

        var first = lines.FindIndex(l => l.Trim().Length > 0 && !l.TrimStart().StartsWith('#'));
        Assert.True(first >= 0 && Regex.IsMatch(lines[first], @"^eng/pack\.sh(\s+#.*)?$"),
            $"samples/{sample}/README.md's commands must start with eng/pack.sh (the packages the sample restores): {(first >= 0 ? lines[first] : "none")}");
        lines[first] = "# eng/pack.sh: artifacts/packages holds the fixture's feed";
        return string.Join('\n', lines) + "\n";
    }
}
