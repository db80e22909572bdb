using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// What a plugin and a second Confluent.Kafka version cost, one measurement per process (each mode prints one JSON line;
/// <c>benchmarks/scripts/plugin-costs.sh</c> runs them in fresh processes, alternating, and summarises):
/// <list type="bullet">
/// <item><c>plugin-load PATH...</c>: <see cref="ClientPlugins.Load(IEnumerable{string}, IEnumerable{string})"/> timed
/// alone, with the built-in clients' names as the tool passes them, then with each client's
/// <see cref="IBenchClientFactory.DescribeLibrary"/> and <see cref="IBenchClientFactory.CheckAvailability"/> (what
/// <c>kafkaperf clients</c> prints).</item>
/// <item><c>version-memory one|same2|two BOOTSTRAP [VERSION_FOLDER]</c>: <c>one</c> creates a <c>confluent</c> client,
/// <c>same2</c> two of them, <c>two</c> a <c>confluent</c> and the folder's version (<see cref="ClientVersions.Load"/>);
/// each gets a topic of its own and a producer with the client's defaults that sends 10 000 records of 100 B, flushed.
/// With every producer alive: a full compacting GC, then VmRSS, RssAnon, RssFile, VmHWM and Threads from
/// <c>/proc/self/status</c> and the GC's heap figures. The topics are deleted and everything disposed after.</item>
/// </list>
/// </summary>
internal static class PluginCosts
{
    private const int Records = 10_000;
    private const int PayloadBytes = 100;

    /// <summary><c>plugin-load PATH...</c>.</summary>
    /// <param name="paths">Plugin assemblies, their published folders, or client version folders.</param>
    /// <returns>The exit code.</returns>
    public static int Load(IReadOnlyList<string> paths)
    {
        // The built-in clients exist before any plugin loads, as in the tool (its services register them at start-up).
        var builtIn = new IBenchClientFactory[]
        {
            new JavaClientFactory(JavaStyle.PerRecord), new JavaClientFactory(JavaStyle.Batched), new JavaClientFactory(JavaStyle.Records),
            new InMemoryClientFactory(new InMemoryClientOptions()),
        }.Concat(ConfluentClientFactory.AllStyles()).Select(f => f.Name).ToList();
        var watch = Stopwatch.StartNew();
        var clients = ClientPlugins.Load(paths, builtIn);
        double loadMs = watch.Elapsed.TotalMilliseconds;
        var described = clients.Select(c => (c.Factory.DescribeLibrary() ?? "-") + " / " + (c.Factory.CheckAvailability() ?? "ready")).ToList();
        double loadAndDescribeMs = watch.Elapsed.TotalMilliseconds;
        Console.WriteLine(JsonSerializer.Serialize(new
        {
            mode = "plugin-load",
            paths,
            loadMs = Math.Round(loadMs, 2),
            loadAndDescribeMs = Math.Round(loadAndDescribeMs, 2),
            clients = clients.Select(c => c.Factory.Name),
            described,
        }));
        return 0;
    }

    /// <summary><c>version-memory one|same2|two BOOTSTRAP [VERSION_FOLDER]</c>.</summary>
    /// <param name="setup"><c>one</c>, <c>same2</c> or <c>two</c>.</param>
    /// <param name="bootstrap">The broker.</param>
    /// <param name="versionFolder">A client version's folder (<c>prepare-client</c>); needed for <c>two</c>.</param>
    /// <returns>The exit code.</returns>
    public static async Task<int> MemoryAsync(string setup, string bootstrap, string? versionFolder)
    {
        if (setup is not ("one" or "same2" or "two") || (setup == "two" && versionFolder is null))
        {
            await Console.Error.WriteLineAsync("usage: version-memory one|same2|two BOOTSTRAP [VERSION_FOLDER] (two needs the folder)");
            return 2;
        }
        long rssStartKb = Status()["VmRSS"];
        var factories = new List<IBenchClientFactory> { new ConfluentClientFactory() };
        if (setup == "same2") factories.Add(new ConfluentClientFactory());
        if (setup == "two")
            factories.Add(ClientVersions.Load(versionFolder!).Single(c => c.Factory.Name.StartsWith("confluent@", StringComparison.Ordinal)).Factory);
        var live = new List<(IBenchClient Client, IBenchProducer Producer, string Topic)>();
        var sink = new CountingSink();
        var payload = new byte[PayloadBytes];
        try
        {
            foreach (var factory in factories)
            {
                var client = factory.Create(new KafkaEndpoint(bootstrap));
                var topic = string.Create(CultureInfo.InvariantCulture, $"plugin-costs-{Guid.NewGuid():N}");
                await client.CreateTopicAsync(new TopicSpec(topic), CancellationToken.None);
                var producer = client.CreateProducer(new ProducerSpec(topic, ClientSettings.ClientDefaults), sink);
                live.Add((client, producer, topic));
                for (long i = 0; i < Records; i++) producer.Send(i, payload);
                producer.Flush(CancellationToken.None);
            }
            if (sink.Failed is { } failure) throw new InvalidOperationException("A record was not delivered: " + failure);
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            GC.WaitForPendingFinalizers();
            GC.Collect();
            Thread.Sleep(300);
            var status = Status();
            var info = GC.GetGCMemoryInfo();
            Console.WriteLine(JsonSerializer.Serialize(new
            {
                mode = setup,
                producers = live.Count,
                delivered = Interlocked.Read(ref sink.Delivered),
                versions = live.Select(l => l.Client.LibraryVersion),
                rssStartKb,
                vmRssKb = status["VmRSS"],
                rssAnonKb = status["RssAnon"],
                rssFileKb = status["RssFile"],
                vmHwmKb = status["VmHWM"],
                threads = status["Threads"],
                gcHeapBytes = GC.GetTotalMemory(false),
                gcHeapSizeBytes = info.HeapSizeBytes,
                gcCommittedBytes = info.TotalCommittedBytes,
                loadedAssemblies = AppDomain.CurrentDomain.GetAssemblies().Length,
            }));
            return 0;
        }
        finally
        {
            foreach (var (client, producer, topic) in live)
            {
                producer.Dispose();
                try
                {
                    await client.DeleteTopicAsync(topic, CancellationToken.None);
                }
                finally
                {
                    await client.DisposeAsync();
                }
            }
        }
    }

    /// <summary>The numeric fields of <c>/proc/self/status</c> (kB for the memory ones).</summary>
    private static Dictionary<string, long> Status()
    {
        var fields = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in File.ReadLines("/proc/self/status"))
        {
            var parts = line.Split(':', 2);
            if (parts.Length == 2 && long.TryParse(parts[1].Trim().Split(' ')[0], NumberStyles.Integer, CultureInfo.InvariantCulture, out long value))
                fields[parts[0]] = value;
        }
        return fields;
    }

    private sealed class CountingSink : IDeliverySink
    {
        public long Delivered;
        public string? Failed;

        public void OnDelivered(long key) => Interlocked.Increment(ref Delivered);

        public void OnDeliveryFailed(long key, string reason) => Failed ??= reason;
    }
}
