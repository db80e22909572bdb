using System.Text.Json.Nodes;

namespace KafkaPerf.Cli.Tests.Plugins;

/// <summary>
/// Clients from outside the tool, as users bring them: the sample plugin (samples/CustomClient) beside <c>confluent</c> on
/// the embedded broker, in this process and in a worker process; a second Confluent.Kafka version beside the default one;
/// a version prepared into a folder; and every way a plugin is refused in one line before anything starts.
/// </summary>
public sealed class PluginTests(SamplePlugin sample) : IClassFixture<SamplePlugin>
{
    private static JsonNode Result(string folder) => JsonNode.Parse(File.ReadAllText(Assert.Single(Directory.GetFiles(folder, "*.json"))))!;

    [Fact]
    public async Task Run_SamplePluginBesideConfluent_EveryScenarioEveryKeyOnce()
    {
        var output = sample.Scratch("beside");

        var (exit, stdout, err) = await CliProcess.RunAsync(null, "run", "--plugin", sample.Folder, "--clients", "orders-json,confluent",
            "--scenarios", "produce,consume,roundtrip", "--messages", "2000", "--sizes", "100", "--repeat", "1", "--format", "json,md", "--output", output);

        Assert.True(exit == 0, err);
        var result = Result(output);
        var runs = result["runs"]!.AsArray();
        Assert.Equal(12, runs.Count);
        // Every run succeeded: the runner checked every key exactly once (no loss, no duplicate), whoever's client it was.
        Assert.All(runs, r => Assert.True((bool)r!["succeeded"]!, r.ToJsonString()));
        Assert.Equal(6, runs.Count(r => (string)r!["client"]! == "orders-json"));
        var plugin = result["clients"]!.AsArray().Single(c => (string)c!["name"]! == "orders-json")!;
        Assert.Equal(Path.Combine(sample.Folder, "CustomClient.dll"), (string)plugin["origin"]!);
        Assert.Null(result["clients"]!.AsArray().Single(c => (string)c!["name"]! == "confluent")!["origin"]);
        Assert.Contains($"from {Path.Combine(sample.Folder, "CustomClient.dll")}", stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_TwoConfluentVersionsInOneProcess_EachOnItsOwnLibrdkafka()
    {
        var output = sample.Scratch("versions");
        var cache = sample.Scratch("cache");

        var (exit, _, err) = await CliProcess.RunAsync(new Dictionary<string, string?> { ["KAFKAPERF_CLIENT_CACHE"] = cache },
            "run", "--clients", "confluent@2.15.1,confluent", "--scenarios", "produce,consume", "--messages", "2000", "--sizes", "100", "--repeat", "1",
            "--format", "json", "--output", output);

        Assert.True(exit == 0, err);
        Assert.Contains("restoring Confluent.Kafka 2.15.1", err, StringComparison.Ordinal);
        var result = Result(output);
        Assert.All(result["runs"]!.AsArray(), r => Assert.True((bool)r!["succeeded"]!, r.ToJsonString()));
        var clients = result["clients"]!.AsArray().ToDictionary(c => (string)c!["name"]!, c => c!);
        // The versions as read from each loaded library itself, and the file each one's bindings use.
        var old = clients["confluent@2.15.1"]["details"]!;
        var current = clients["confluent"]["details"]!;
        Assert.Equal("2.15.1", (string)old["Confluent.Kafka"]!);
        Assert.StartsWith("2.15.1", (string)old["librdkafka"]!, StringComparison.Ordinal);
        Assert.StartsWith(cache, (string)old["librdkafka.file"]!, StringComparison.Ordinal);
        Assert.Equal("2.16.0", (string)current["Confluent.Kafka"]!);
        Assert.StartsWith("2.16.0", (string)current["librdkafka"]!, StringComparison.Ordinal);
        Assert.DoesNotContain(cache, (string)current["librdkafka.file"]!, StringComparison.Ordinal);
        Assert.Contains("Confluent.Kafka 2.15.1, librdkafka.redist 2.15.1", (string)clients["confluent@2.15.1"]["origin"]!, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_APluginClientOnAWorkerProcess_TheWorkerLoadsThePlugin()
    {
        var output = sample.Scratch("worker");

        var (exit, _, err) = await CliProcess.RunAsync(null, "run", "--processes", "1", "--plugin", sample.Folder, "--clients", "orders-json",
            "--scenarios", "produce", "--messages", "2000", "--sizes", "100", "--repeat", "1", "--format", "json", "--output", output);

        Assert.True(exit == 0, err);
        var runs = Result(output)["runs"]!.AsArray();
        Assert.All(runs, r => Assert.True((bool)r!["succeeded"]!, r.ToJsonString()));
        Assert.All(runs, r => Assert.Single(r!["workers"]!.AsArray()));
    }

    [Fact]
    public async Task PrepareClient_ThenPlugin_TheFolderHoldsTheVersionsStyles()
    {
        // As the docs say it, with a folder relative to where the user is.
        var here = sample.Scratch("prepared");
        var folder = Path.Combine(here, "confluent-2.15.1");

        var (prepared, _, prepareErr) = await CliProcess.RunInAsync(here, null, "prepare-client", "confluent@2.15.1", "--output", "confluent-2.15.1");
        var (listed, clients, listErr) = await CliProcess.RunInAsync(here, null, "clients", "--plugin", "confluent-2.15.1");

        Assert.True(prepared == 0, prepareErr);
        Assert.True(listed == 0, listErr);
        // The packages only: the adapter that runs them is the running tool's.
        Assert.True(File.Exists(Path.Combine(folder, "Confluent.Kafka.dll")));
        Assert.False(File.Exists(Path.Combine(folder, "KafkaPerf.Adapters.dll")));
        foreach (var name in new[] { "confluent@2.15.1", "confluent-async@2.15.1", "confluent-sync@2.15.1", "confluent-records@2.15.1" })
            Assert.Contains(name + " ", clients, StringComparison.Ordinal);
        Assert.Contains($"from: {folder} (Confluent.Kafka 2.15.1, librdkafka.redist 2.15.1)", clients, StringComparison.Ordinal);
        Assert.Contains("library: Confluent.Kafka 2.15.1, librdkafka 2.15.1", clients, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Clients_WithThePlugin_ListsItsClientWithWhereItCameFrom()
    {
        var (exit, stdout, err) = await CliProcess.RunAsync(null, "clients", "--plugin", sample.Folder);

        Assert.True(exit == 0, err);
        Assert.Contains("orders-json ", stdout, StringComparison.Ordinal);
        Assert.Contains($"from: {Path.Combine(sample.Folder, "CustomClient.dll")}", stdout, StringComparison.Ordinal);
    }

    public static TheoryData<string, string> BadPluginCases => new()
    {
        { "missing", "The plugin '{0}' does not exist: give a plugin's .dll, or the folder it was published to (dotnet publish)." },
        { "text", "'{0}' is not a .NET assembly: give the plugin's .dll" },
        { "folder", "The folder '{0}' holds no plugin: it needs a .dll with its .deps.json beside it" },
        { "no-core", "'{0}' holds no client: it does not reference KafkaPerf.Core" },
        { "throwing", "Creating BadFactory of '{0}' failed: InvalidOperationException: no licence key." },
        { "clash", "The plugin client 'confluent' from '{0}' has the name of a built-in client: rename it" },
        { "contract", "'{0}' was built against the client contract 9.0 (KafkaPerf.Core 9.0.0.0) and this KafkaPerf has {2}: build it again against this KafkaPerf's KafkaPerf.Core." },
        { "contract-1", "'{0}' was built against the client contract 1.0 (KafkaPerf.Core 1.0.0.0) and this KafkaPerf has {2}: since 2.0 IBenchClientFactory.Create receives a KafkaEndpoint (bootstrap servers, security, stall timeout) instead of ClientConnection, whose faults, probes and broker watch are no longer a client's; change that parameter and build it again against this KafkaPerf's KafkaPerf.Core." },
        { "twice", "Two plugin clients are named 'orders-json': from '{1}' and from '{0}'" },
        { "version", "'java@4.0.0': java runs the one Apache Kafka client whose jars KafkaPerf fetched" },
    };

    [Theory]
    [MemberData(nameof(BadPluginCases))]
    public async Task Run_ABadPlugin_OneLineExit2AndNothingStarts(string kind, string expected)
    {
        var folder = sample.Scratch("bad-" + kind);
        string path = kind switch
        {
            "missing" => Path.Combine(folder, "nothing-here.dll"),
            "text" => Write(Path.Combine(folder, "NotAssembly.dll"), "hello"),
            "folder" => Write(Path.Combine(folder, "readme.txt"), "no plugin") is var _ ? folder : folder,
            "no-core" => Path.Combine(sample.Folder, "Confluent.Kafka.dll"),
            "throwing" => BadPlugins.Throwing(folder),
            "clash" => BadPlugins.NamedLikeABuiltIn(folder),
            "contract" => BadPlugins.OtherContract(folder),
            "contract-1" => BadPlugins.OtherContract(folder, "1.0"),
            "twice" => Copy(sample.Folder, Path.Combine(folder, "copy")),
            _ => sample.Folder,
        };
        var output = Path.Combine(folder, "results");
        string[] args = kind switch
        {
            "twice" => ["run", "--plugin", sample.Folder, "--plugin", path, "--clients", "orders-json", "--output", output],
            "version" => ["run", "--clients", "java@4.0.0", "--output", output],
            _ => ["run", "--plugin", path, "--clients", "confluent", "--output", output],
        };

        var (exit, _, err) = await CliProcess.RunAsync(null, args);

        Assert.Equal(2, exit);
        var line = Assert.Single(err.TrimEnd().Split('\n'));
        var main = kind is "twice" ? Path.Combine(path, "CustomClient.dll") : kind is "folder" or "missing" ? path : Path.GetFullPath(path);
        Assert.StartsWith("kafkaperf: " + string.Format(System.Globalization.CultureInfo.InvariantCulture, expected, main, Path.Combine(sample.Folder, "CustomClient.dll"), ContractOfThisKafkaPerf()), line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    /// <summary>The client contract of the KafkaPerf under test: its KafkaPerf.Core's major and minor version.</summary>
    private static string ContractOfThisKafkaPerf() =>
        System.Reflection.AssemblyName.GetAssemblyName(Path.Combine(AppContext.BaseDirectory, "KafkaPerf.Core.dll")).Version!.ToString(2);

    private static string Write(string path, string text)
    {
        File.WriteAllText(path, text);
        return path;
    }

    private static string Copy(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
        return to;
    }
}
