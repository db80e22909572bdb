using System.Text.RegularExpressions;
using KafkaPerf.Clients;

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>
/// The <c>dotnet new</c> templates as a user gets them: KafkaPerf.Templates installed from the local feed into a
/// template cache of the test's own (<c>--debug:custom-hive</c>, never the machine's), each template made into a folder
/// whose nuget.config adds the feed, and built from the feed with warnings as errors. The xUnit project's tests must pass
/// on the embedded broker they start; the plugin must load in the tool installed from the same feed (into a tool path of
/// the test's own: the tool as users get it, whatever configuration this repository was built in) and run without
/// losing a record.
/// </summary>
[Collection(LocalFeedCollectionDefinition.Name)]
public sealed class TemplatesTests(LocalFeedFixture feed)
{
    [Fact]
    public async Task XunitTemplate_FromTheFeed_BuildsAndPassesOnTheEmbeddedBroker()
    {
        var (work, hive) = await InstallTemplatesAsync("template-xunit");

        var create = await feed.RunAsync(work, "dotnet", "new", "kafkaperf-xunit", "-o", "OrdersPerfTests", "--debug:custom-hive", hive, "--no-update-check");
        Assert.True(create.Exit == 0, create.Output);
        var test = await feed.RunAsync(Path.Combine(work, "OrdersPerfTests"), "dotnet", "test", "-warnaserror");

        Assert.True(test.Exit == 0, test.Output);
        // Both tests: confluent's and java's.
        Assert.Matches(new Regex(@"^Passed! +- Failed: +0, Passed: +2, ", RegexOptions.Multiline), test.Output);
    }

    [Fact]
    public async Task PluginTemplate_FromTheFeed_LoadsWithPluginAndRunsWithoutLoss()
    {
        var (work, hive) = await InstallTemplatesAsync("template-plugin");
        var plugin = Path.Combine(work, "plugin");
        var tools = Path.Combine(work, "tools");

        var create = await feed.RunAsync(work, "dotnet", "new", "kafkaperf-plugin", "-o", "OrdersClient", "--debug:custom-hive", hive, "--no-update-check");
        Assert.True(create.Exit == 0, create.Output);
        var publish = await feed.RunAsync(Path.Combine(work, "OrdersClient"), "dotnet", "publish", "-c", "Release", "-o", plugin, "-warnaserror");
        Assert.True(publish.Exit == 0, publish.Output);
        var install = await feed.RunAsync(work, "dotnet", "tool", "install", "KafkaPerf.Cli", "--version", ClientContract.Release, "--tool-path", tools, "--add-source", feed.Feed);
        Assert.True(install.Exit == 0, install.Output);
        var tool = Path.Combine(tools, "dotnet-kafkaperf");

        var clients = await feed.RunAsync(work, tool, "clients", "--plugin", plugin);
        var run = await feed.RunAsync(work, tool, "run", "--plugin", plugin, "--clients", "ordersclient", "--messages", "1000", "--sizes", "100", "--repeat", "1",
            "--quiet", "--output", Path.Combine(work, "results"));

        Assert.True(clients.Exit == 0, clients.Output);
        // The client is named after the project, in lower case, and comes from the published folder.
        Assert.Matches(new Regex($@"^ordersclient +needs a broker .*\n +from: {Regex.Escape(plugin)}/OrdersClient\.dll\n(?: +.*\n)*? +ready$", RegexOptions.Multiline), clients.Output);
        Assert.True(run.Exit == 0, run.Output);
        // Keys carried unchanged, through a roundtrip's timestamps too: one run each, none failed, nothing lost or duplicated.
        foreach (var scenario in new[] { "produce", "consume", "roundtrip" })
            Assert.Matches(new Regex($@"^\| {scenario} \| defaults \| ordersclient \| 1 000 \| 100 \| 1 \| 0 \|", RegexOptions.Multiline), run.Output);
        Assert.Matches(new Regex(@"^\| roundtrip \| defaults \| ordersclient \| 1 000 \| 100 \| 1 \| 0 \|.*\| 0 \| 0 \|$", RegexOptions.Multiline), run.Output);
    }

    /// <summary>A folder for the user's projects (its nuget.config adds the feed to the machine's sources) and a template
    /// cache of its own with KafkaPerf.Templates installed from the feed, as <c>dotnet new install</c> does.</summary>
    private async Task<(string Work, string Hive)> InstallTemplatesAsync(string name)
    {
        var work = feed.Folder(name);
        var hive = Path.Combine(work, "hive");
        File.WriteAllText(Path.Combine(work, "nuget.config"),
            $"<configuration><packageSources><add key=\"kafkaperf-local\" value=\"{feed.Feed}\" /></packageSources></configuration>");
        var install = await feed.RunAsync(work, "dotnet", "new", "install", $"KafkaPerf.Templates@{ClientContract.Release}", "--add-source", feed.Feed, "--debug:custom-hive", hive);
        Assert.True(install.Exit == 0, install.Output);
        Assert.Contains("kafkaperf-xunit", install.Output, StringComparison.Ordinal);
        Assert.Contains("kafkaperf-plugin", install.Output, StringComparison.Ordinal);
        return (work, hive);
    }
}
