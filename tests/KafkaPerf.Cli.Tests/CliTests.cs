using KafkaPerf.Clusters;

namespace KafkaPerf.Cli.Tests;

// One class: the tests redirect the process-wide console, so they must not run in parallel.
public partial class CliTests
{
    private static async Task<(int Exit, string Out, string Err)> RunAsync(params string[] args)
    {
        var (oldOut, oldErr) = (Console.Out, Console.Error);
        using var stdout = new StringWriter();
        using var stderr = new StringWriter();
        Console.SetOut(stdout);
        Console.SetError(stderr);
        try
        {
            int exit = await Program.RunAsync(args);
            return (exit, stdout.ToString(), stderr.ToString());
        }
        finally
        {
            Console.SetOut(oldOut);
            Console.SetError(oldErr);
        }
    }

    [Theory]
    [InlineData("--clients", "nope", "Unknown client 'nope'")]
    [InlineData("--sizes", "0", "Payload size 0 is not positive")]
    [InlineData("--messages", "ten", "message count 'ten' is not a whole number")]
    [InlineData("--scenarios", "fly", "Unknown scenario 'fly'")]
    [InlineData("--format", "xml", "Unknown format 'xml'")]
    [InlineData("--repeat", "0", "Repeat 0 is below 1")]
    [InlineData("--acks", "2", "Unknown acks '2'")]
    [InlineData("--compression", "brotli", "Unknown compression 'brotli'")]
    [InlineData("-X", "linger.ms=5", "is not client:key=value")]
    [InlineData("--broker-heap", "128", "Broker heap 128 MB is too small")]
    [InlineData("--brokers", "0", "--brokers 0 is out of range: the embedded cluster has 1 to 9 brokers (3 is a replicated cluster).")]
    [InlineData("--brokers", "10", "--brokers 10 is out of range")]
    [InlineData("--replication-factor", "0", "Replication factor 0 is out of range: use at least 1")]
    [InlineData("--min-insync-replicas", "0", "min.insync.replicas 0 is below 1: use at least 1.")]
    [InlineData("-X", "confluent:nonsense.key=1", "Client 'confluent' does not accept its settings: librdkafka rejects nonsense.key=1")]
    [InlineData("-X", "nope:linger.ms=1", "client 'nope', which is not in the plan")]
    [InlineData("-X", "java:linger.mss=5", "Client 'java' does not accept its settings: 'linger.mss' is not a setting of the Java producer or consumer")]
    [InlineData("-X", "java:acks=banana", "Client 'java' does not accept its settings: Invalid value banana for configuration acks")]
    [InlineData("--bootstrap", "notahostport", "--bootstrap 'notahostport' is not host:port")]
    [InlineData("--sizes", "2147483647", "Payload size 2147483647 is too large: use at most 100000000 bytes")]
    [InlineData("--repeat", "2147483647", "Repeat 2147483647 is too large: use at most 10000")]
    [InlineData("--format", "", "--format is empty")]
    [InlineData("--messages", "1,000", "looks like a number with a thousands separator")]
    [InlineData("--messages", "99999999999999999999", "The message count '99999999999999999999' is too large: use at most 9223372036854775807")]
    [InlineData("--scenarios", "1", "Unknown scenario '1'")]
    [InlineData("--partitions", "0", "partitions 0 is not positive")]
    [InlineData("--clients", "", "No client given: name at least one (e.g. --clients confluent,java).")]
    [InlineData("--repeat", "x", "Cannot parse argument 'x' for option '--repeat'")]
    [InlineData("--bogus", "1", "Unrecognized command or argument '--bogus'")]
    [InlineData("--payload", "nope", "Unknown payload 'nope': use random, access-log or file:PATH.")]
    [InlineData("--payload", "file:/nonexistent/payload.json", "The payload file '/nonexistent/payload.json' does not exist")]
    [InlineData("--references", "nope", "Unknown reference 'nope': choose from kafka-tools, kcat.")]
    [InlineData("--references", "inmemory", "'inmemory' is a client, not a reference tool: name it in --clients.")]
    [InlineData("--clients", "kcat", "'kcat' is a reference tool, not a client: name it in --references.")]
    [InlineData("--references", "kcat,kcat", "Reference 'kcat' is listed twice")]
    [InlineData("--kafka-home", "/nonexistent/kafka", "--kafka-home is '/nonexistent/kafka', but '/nonexistent/kafka/libs' holds no kafka-clients jar")]
    public async Task Run_BadInput_OneLineAndExitCode2AndNoFiles(string flag, string value, string expected)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", flag, value, "--output", output);

        Assert.Equal(2, exit);
        Assert.Contains(expected, err, StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
        Assert.False(Directory.Exists(output));
    }

    [Theory]
    [InlineData("--replication-factor", "3", "Replication factor 3 is more than the cluster's 1 broker(s): use --replication-factor 1 or less, or a cluster with more brokers (--brokers 3).")]
    [InlineData("--min-insync-replicas", "2", "min.insync.replicas 2 is more than the topics' replication factor 1: no write with acks=all could succeed; use --min-insync-replicas 1 or less.")]
    public async Task Run_ReplicationTheClusterCannotHold_OneLineExit2BeforeAnyRun(string flag, string value, string expected)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", "--clients", "confluent", "--scenarios", "produce", "--messages", "10", "--sizes", "10",
            "--broker-heap", "256", "--quiet", flag, value, "--output", output);

        Assert.Equal(2, exit);
        Assert.Equal($"kafkaperf: {expected}", err.TrimEnd());
        Assert.False(Directory.Exists(output));
    }

    [Theory]
    [InlineData(new[] { "--messages", "100000000", "--sizes", "100000" }, "A run of 100,000,000 records of 100000 B writes at least 10000 GB to the embedded broker's disk",
        "use fewer --messages or smaller --sizes, point TMPDIR at a larger disk, or benchmark your cluster with --bootstrap.")]
    [InlineData(new[] { "--rate", "100k", "--duration", "10000s", "--sizes", "100000", "--brokers", "3" }, "A run of 1,000,000,000 records of 100000 B (plus its warm-up's) × 3 replicas writes at least ",
        "use a lower --rate, a shorter --duration or smaller --sizes, point TMPDIR at a larger disk, or benchmark your cluster with --bootstrap.")]
    public async Task Run_ARunLargerThanTheBrokersFreeDisk_OneLineExit2BeforeTheBrokerStarts(string[] args, string expected, string advice)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));
        var watch = System.Diagnostics.Stopwatch.StartNew();

        var (exit, _, err) = await RunAsync(["run", "--clients", "confluent", "--scenarios", "produce", "--quiet", .. args, "--output", output]);

        Assert.Equal(2, exit);
        Assert.StartsWith($"kafkaperf: {expected}", err, StringComparison.Ordinal);
        Assert.Contains(" free under ", err, StringComparison.Ordinal);
        Assert.EndsWith(advice, err.TrimEnd(), StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
        Assert.False(Directory.Exists(output));
        // Said before a broker starts (which takes seconds).
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}");
    }

    [Fact]
    public async Task Run_BrokersWithBootstrap_OneLineExit2()
    {
        var (exit, _, err) = await RunAsync("run", "--brokers", "3", "--bootstrap", "localhost:9092", "--output", Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N")));

        Assert.Equal(2, exit);
        Assert.Equal("kafkaperf: --brokers sizes the embedded cluster, and this run's broker is not one: leave --brokers out, or --bootstrap and --broker.", err.TrimEnd());
    }

    [Theory]
    [InlineData("0")]
    [InlineData("ten")]
    public async Task Run_AsyncWindowNotAPositiveInteger_OneLineExit2NothingWritten(string window)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", "--clients", "confluent,confluent-async", "-X", "confluent-async:window=" + window, "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(err.TrimEnd().Split('\n'));
        Assert.Contains($"-X confluent-async:window={window} is not a window: give the number of ProduceAsync calls in flight, a positive integer", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Clients_ShowsLibraryCapabilitiesAndReadiness()
    {
        var (exit, stdout, _) = await RunAsync("clients");

        Assert.Equal(0, exit);
        Assert.Contains("library: Confluent.Kafka 2.16.0, librdkafka 2.16.0 (librdkafka.redist: ", stdout, StringComparison.Ordinal);
        Assert.Contains("library: Apache Kafka client 4.3.1", stdout, StringComparison.Ordinal);
        Assert.Contains("capabilities: Prefetch, DeliveryLatency, Workloads, Transactions, ShareGroups", stdout, StringComparison.Ordinal);
        Assert.Contains("library: kcat 1.7.1, librdkafka 2.16.0", stdout, StringComparison.Ordinal);
        Assert.Contains("library: Apache Kafka tools 4.3.1", stdout, StringComparison.Ordinal);
        Assert.True(stdout.IndexOf("Reference tools", StringComparison.Ordinal) > stdout.IndexOf("java-batched", StringComparison.Ordinal));
        Assert.Contains("library: librdkafka 2.16.0 (librdkafka.redist: ", stdout, StringComparison.Ordinal);
        Assert.Equal(11, stdout.Split('\n').Count(l => l.Trim() == "ready"));
    }

    [Fact]
    public async Task Run_EmptyOutput_OneLineExit2()
    {
        var (exit, _, err) = await RunAsync("run", "--clients", "inmemory", "--output", "");

        Assert.Equal(2, exit);
        Assert.Equal("kafkaperf: --output is empty: name a folder for the results, e.g. --output kafkaperf-results.", err.TrimEnd());
    }

    [Fact]
    public async Task Run_OutputFolderNotWritable_OneLineExit2BeforeAnyRun()
    {
        var (exit, _, err) = await RunAsync("run", "--clients", "inmemory", "--output", "/proc");

        Assert.Equal(2, exit);
        var line = Assert.Single(err.TrimEnd().Split('\n'));
        Assert.StartsWith("kafkaperf: Cannot write to the output folder '/proc'", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_TwiceIntoOneFolder_BothResultsKept()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            string[] args = ["run", "--clients", "inmemory", "--scenarios", "produce", "--messages", "100", "--sizes", "10", "--repeat", "1", "--quiet", "--output", output.FullName];

            var (first, _, _) = await RunAsync(args);
            var (second, _, _) = await RunAsync(args);

            Assert.Equal((0, 0), (first, second));
            // Each run: csv, json, md, html and the throughput chart's svg, under a base name of its own (the second one's
            // ends in -2 when both started within the same second).
            Assert.Equal(10, output.GetFiles().Length);
            var bases = output.GetFiles("*.json").Select(f => Path.GetFileNameWithoutExtension(f.Name)).ToList();
            Assert.Equal(2, bases.Count);
            Assert.All(bases, b => Assert.Equal(5, output.GetFiles().Count(f => f.Name.StartsWith(b + ".", StringComparison.Ordinal) || f.Name.StartsWith(b + "-throughput", StringComparison.Ordinal))));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Compare_SavedResults_TableAndTheGatesExitCodes()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-compare-");
        try
        {
            var baseline = SavedResult(folder, "base", 1.00);
            var same = SavedResult(folder, "same", 1.00);
            var slower = SavedResult(folder, "slower", 1.25);

            var (plain, table, _) = await RunAsync("compare", baseline, slower);
            var (passes, _, passErr) = await RunAsync("compare", baseline, same, "--fail-if-slower", "10");
            var (fails, _, failErr) = await RunAsync("compare", baseline, slower, "--fail-if-slower", "10");
            var (tolerant, _, _) = await RunAsync("compare", baseline, slower, "--fail-if-slower", "50");

            Assert.Equal(0, plain);
            Assert.Contains("| confluent | produce | defaults | 1000 | 100 | – | elapsed s | 10 / 10 | 12", table, StringComparison.Ordinal);
            Assert.Contains("candidate slower", table, StringComparison.Ordinal);
            Assert.Equal(0, passes);
            Assert.Contains("no cell is slower than the baseline by more than 10 %", passErr, StringComparison.Ordinal);
            Assert.Equal(4, fails);
            Assert.StartsWith("kafkaperf: confluent produce 1000 × 100 B (defaults) is slower by 2", failErr, StringComparison.Ordinal);
            Assert.Equal(0, tolerant);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("missing.json", "does not exist")]
    [InlineData("not-json.json", "is not a KafkaPerf JSON result")]
    public async Task Compare_BadFile_OneLineExit2(string name, string expected)
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-compare-");
        try
        {
            File.WriteAllText(Path.Combine(folder.FullName, "not-json.json"), "hello");
            var good = SavedResult(folder, "base", 1.0);

            var (exit, _, err) = await RunAsync("compare", good, Path.Combine(folder.FullName, name));

            Assert.Equal(2, exit);
            var line = Assert.Single(err.TrimEnd().Split('\n'));
            Assert.Contains(expected, line, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    /// <summary>A result file with 10 runs of one cell, times scaled by <paramref name="factor"/> with a small seeded spread.</summary>
    private static string SavedResult(DirectoryInfo folder, string name, double factor)
    {
        var plan = new KafkaPerf.Plans.BenchmarkPlanBuilder().Clients("confluent").Scenarios(KafkaPerf.Scenarios.ScenarioKind.Produce)
            .MessageCounts(1_000).PayloadSizes(100).Repeat(10).Build();
        var random = new Random(name.Length);
        var runs = Enumerable.Range(1, 10).Select(i => new KafkaPerf.Scenarios.RunRecord
        {
            Sequence = i, Client = "confluent", Scenario = KafkaPerf.Scenarios.ScenarioKind.Produce, MessageCount = 1_000, PayloadBytes = 100,
            Variant = "defaults", Repetition = i, Topic = "t" + i, ElapsedSeconds = factor * (1 + (0.01 * (random.NextDouble() - 0.5))),
            MessagesPerSecond = 1_000 / factor, MegabytesPerSecond = 0.1, IsWarmup = false, Lost = 0, Duplicates = 0,
        }).ToList();
        var result = new KafkaPerf.Reporting.BenchmarkResult
        {
            StartedAtUtc = DateTimeOffset.UnixEpoch, FinishedAtUtc = DateTimeOffset.UnixEpoch, Environment = KafkaPerf.Reporting.EnvironmentInfo.Capture(KafkaPerf.Clusters.ClusterConnection.None),
            Plan = plan, Clients = [], Runs = runs, Cells = KafkaPerf.Reporting.ResultSummarizer.Cells(plan, runs), Comparisons = [], Warnings = [],
        };
        var path = Path.Combine(folder.FullName, name + ".json");
        using (var writer = new StreamWriter(path)) KafkaPerf.Reporting.Exporters.DefaultExporters.Json.Export(result, writer);
        return path;
    }

    [Fact]
    public async Task Run_SeveralParseErrors_AllOnOneLineExit2()
    {
        var (exit, _, err) = await RunAsync("run", "--bogus", "--repeat", "x");

        Assert.Equal(2, exit);
        var line = Assert.Single(err.TrimEnd().Split('\n'));
        Assert.Contains("'--bogus'", line, StringComparison.Ordinal);
        Assert.Contains("'x'", line, StringComparison.Ordinal);
        Assert.EndsWith("see 'dotnet kafkaperf run --help'.", line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("access-log", "accessLog")]
    [InlineData("file:", "file")]
    public async Task Run_PayloadKinds_RunAndAreRecorded(string payload, string recorded)
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var sample = Path.Combine(output.FullName, "sample.json");
            File.WriteAllText(sample, "{\"id\": 1, \"name\": \"widget\"}");
            var value = payload == "file:" ? payload + sample : payload;

            var (exit, _, _) = await RunAsync("run", "--clients", "inmemory", "--scenarios", "consume", "--messages", "1000", "--sizes", "100,5000",
                "--repeat", "1", "--payload", value, "--quiet", "--format", "json", "--output", output.FullName);

            Assert.Equal(0, exit);
            var json = File.ReadAllText(Assert.Single(output.GetFiles("kafkaperf-*.json")).FullName);
            Assert.Contains($"\"payload\": \"{recorded}\"", json, StringComparison.Ordinal);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_OneRepetition_SdAndCvShownAsUndefined()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, _) = await RunAsync("run", "--clients", "inmemory", "--scenarios", "produce", "--messages", "1000", "--sizes", "100",
                "--repeat", "1", "--quiet", "--format", "md", "--output", output.FullName);

            Assert.Equal(0, exit);
            // The statistics table's row, not the Resources table's below it.
            var statistics = stdout.Split('\n').SkipWhile(l => l != "## Per-client statistics").TakeWhile(l => l != "## Resources");
            var row = Assert.Single(statistics, l => l.StartsWith("| produce | defaults | inmemory |", StringComparison.Ordinal));
            // runs, failed, mean, then SD and CV: undefined with one run, not 0.
            Assert.Equal("–", row.Split('|')[9].Trim());
            Assert.Equal("–", row.Split('|')[10].Trim());
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_UsePrefetchWithClientWithoutIt_WarnsAndRecordsPrefetchOff()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, _, err) = await RunAsync("run", "--clients", "inmemory", "--scenarios", "consume", "--messages", "1000", "--sizes", "100",
                "--repeat", "1", "--use-prefetch", "--format", "json", "--output", output.FullName);

            Assert.Equal(0, exit);
            Assert.Contains("Client 'inmemory' has no prefetch: UsePrefetch is off for it.", err, StringComparison.Ordinal);
            var json = File.ReadAllText(Assert.Single(output.GetFiles("*.json")).FullName);
            Assert.Contains("has no prefetch", json, StringComparison.Ordinal);
            Assert.Contains("\"usePrefetch\": true", json, StringComparison.Ordinal);
            Assert.DoesNotContain("\"prefetchEnabled\": true", json, StringComparison.Ordinal);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_TinyInMemoryMatrix_PrintsTablesAndWritesEveryFormatWithItsCharts()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, _) = await RunAsync("run", "--clients", "inmemory", "--messages", "2000", "--sizes", "100,1000", "--repeat", "2", "--quiet", "--output", output.FullName);

            Assert.Equal(0, exit);
            Assert.Contains("## Per-client statistics", stdout, StringComparison.Ordinal);
            Assert.Equal(["csv", "html", "json", "md"], output.GetFiles().Select(f => f.Extension.TrimStart('.')).Where(e => e != "svg").Order());
            // Throughput for each of the three scenarios, and roundtrip latency for each of the two sizes.
            Assert.Equal(["latency-roundtrip-1000b", "latency-roundtrip-100b", "throughput-consume", "throughput-produce", "throughput-roundtrip"],
                output.GetFiles("*.svg").Select(f => string.Join('-', Path.GetFileNameWithoutExtension(f.Name).Split('-')[3..])).Order(StringComparer.Ordinal));
            var csv = File.ReadAllLines(output.GetFiles("*.csv").Single().FullName);
            Assert.Equal(1 + 3 * 2 * (2 + 1), csv.Length);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_BadInputWithVerbose_SameLineThenTheStackTrace()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", "--kafka-home", "/nonexistent/kafka", "--verbose", "--output", output);

        Assert.Equal(2, exit);
        var lines = err.TrimEnd().Split('\n');
        Assert.StartsWith("kafkaperf: --kafka-home is '/nonexistent/kafka'", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("KafkaPerf.Clients.PrerequisiteException: ", lines[1], StringComparison.Ordinal);
        Assert.Contains(lines, l => l.TrimStart().StartsWith("at KafkaPerf.Adapters.Broker.KafkaJars.Locate", StringComparison.Ordinal));
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_BadReferenceSetting_OneLineExit2()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync("run", "--references", "kcat", "-X", "kcat:nonsense.key=1", "--output", output);

        Assert.Equal(2, exit);
        var line = Assert.Single(err.TrimEnd().Split('\n'));
        Assert.StartsWith("kafkaperf: Client 'kcat' does not accept its settings: librdkafka rejects nonsense.key=1", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_ReferenceToolMissing_WarnsLeavesItOutAndRunsTheRest()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        var before = Environment.GetEnvironmentVariable("KAFKAPERF_KCAT");
        Environment.SetEnvironmentVariable("KAFKAPERF_KCAT", "/nonexistent/kcat");
        try
        {
            var (exit, stdout, stderr) = await RunAsync("run", "--clients", "inmemory", "--references", "kcat", "--messages", "1000", "--sizes", "100",
                "--scenarios", "produce", "--repeat", "1", "--output", output.FullName);

            Assert.Equal(0, exit);
            Assert.Single(stderr.Split('\n'), l => l == "warning: Reference 'kcat' was left out: KAFKAPERF_KCAT is '/nonexistent/kcat', which does not exist: point it at a kcat executable or unset it.");
            Assert.Contains("| produce | defaults | inmemory | 1 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.DoesNotContain("| kcat |", stdout, StringComparison.Ordinal);
            Assert.Contains("Reference 'kcat' was left out", File.ReadAllText(output.GetFiles("*.md").Single().FullName), StringComparison.Ordinal);
        }
        finally
        {
            Environment.SetEnvironmentVariable("KAFKAPERF_KCAT", before);
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Clients_ListsConfluentAndInMemoryAsReady()
    {
        var (exit, stdout, _) = await RunAsync("clients");

        Assert.Equal(0, exit);
        Assert.Contains("inmemory", stdout, StringComparison.Ordinal);
        Assert.Contains("confluent         needs a broker  Confluent.Kafka 2.16.0", stdout, StringComparison.Ordinal);
        Assert.DoesNotContain("cannot run here", stdout, StringComparison.Ordinal);
        // The API-style variants, one line each on what they do, the names padded to the longest.
        foreach (var variant in new[] { "confluent-sync    ", "confluent-async   ", "confluent-records ", "java-records      " })
            Assert.Contains(variant + "needs a broker  ", stdout, StringComparison.Ordinal);
    }
}
