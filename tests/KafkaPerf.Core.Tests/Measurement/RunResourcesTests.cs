using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Core.Tests.Running;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Measurement;

public class RunResourcesTests
{
    [Fact]
    public async Task Produce_ClientAllocatesPerSend_RecordsTheAllocationsAndCpu()
    {
        const int Count = 200_000;
        var client = new ProbedClient(allocateBytesPerSend: 64);
        var context = await ContextAsync(client, Count, broker: null);

        var m = Scenario.Produce.Run(context, TestRunContext.Current);

        var r = m.Resources!;
        // Each send allocates an array of 64 bytes plus its header.
        Assert.InRange(r.AllocatedBytes, Count * 64L, Count * 256L);
        Assert.True(r.CpuSeconds > 0, $"CPU {r.CpuSeconds} s");
        Assert.True(r.Gen0Collections >= 0 && r.Gen0Collections >= r.Gen1Collections && r.Gen1Collections >= r.Gen2Collections);
    }

    [Fact]
    public async Task Produce_InMemoryClientWithoutProbes_BrokerAndRuntimeFiguresAreNull()
    {
        var context = await ContextAsync(new InMemoryClient(new InMemoryClientOptions()), 1_000, broker: null);

        var r = Scenario.Produce.Run(context, TestRunContext.Current).Resources!;

        Assert.Null(r.BrokerCpuSeconds);
        Assert.Null(r.TopicBytesOnDisk);
        Assert.Null(r.DiskBytesPerPayloadByte);
        Assert.Null(r.RuntimeGcMillis);
        Assert.Null(r.RuntimeHeapUsedBytes);
    }

    [Fact]
    public async Task Produce_ProbesReadAroundTheTimedSection_RecordsTheirGrowthAndTheDiskPerPayloadByte()
    {
        var broker = new FakeBroker();
        var client = new ProbedClient(allocateBytesPerSend: 0);
        var context = await ContextAsync(client, 1_000, broker);

        var r = Scenario.Produce.Run(context, TestRunContext.Current).Resources!;

        Assert.Equal(0.25, r.BrokerCpuSeconds!.Value, 9);
        Assert.Equal(2 * 1_000 * 100, r.TopicBytesOnDisk);
        Assert.Equal(2.0, r.DiskBytesPerPayloadByte!.Value, 9);
        Assert.Equal(7, r.RuntimeGcMillis);
        Assert.Equal(1, r.RuntimeGcCount);
        Assert.Equal(2_000_000, r.RuntimeHeapUsedBytes);
        Assert.Equal(["t"], broker.DiskReads);
    }

    [Fact]
    public async Task Produce_ThroughShapingProxies_TheirCpuIsReadAtTheSameEdgesAndKeptOutOfTheClients()
    {
        const int Count = 200_000;
        var context = await ContextAsync(new ProbedClient(allocateBytesPerSend: 64), Count, broker: null);
        var proxies = new FakeShaper(step: 0.001);
        context = context with { Network = proxies };

        var r = Scenario.Produce.Run(context, TestRunContext.Current).Resources!;

        Assert.Equal(2, proxies.Readings); // once at each edge of the timed section
        Assert.Equal(0.001, r.ProxyCpuSeconds!.Value, 9);
        Assert.Equal(Math.Max(0, r.CpuUserSeconds + r.CpuSystemSeconds - 0.001), r.CpuSeconds, 9);
        Assert.True(r.CpuSeconds > 0, $"CPU {r.CpuSeconds} s");
    }

    [Fact]
    public async Task RunAsync_ConnectionWithBrokerProbe_CellsHoldMediansAndTheTablesShowThem()
    {
        var plan = new BenchmarkPlanBuilder().Clients("probed").Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip)
            .MessageCounts(2_000).PayloadSizes(100).Repeat(3).Build();
        var runner = new BenchmarkRunner(new ClientRegistry([new ProbedFactory()]), ClusterConnection.None with { BrokerProbe = new FakeBroker() });

        var result = await runner.RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, run => Assert.Equal(0.25, run.Resources!.BrokerCpuSeconds!.Value, 9));
        var cell = result.Cells[0].Resources!;
        Assert.Equal(0.25, cell.BrokerCpuSeconds!.Value, 9);
        Assert.Equal(0.25 * 1000 / 2_000 * 1000, cell.BrokerCpuMillisPerThousandMessages!.Value, 9);
        Assert.Equal(2.0, cell.DiskBytesPerPayloadByte!.Value, 9);
        Assert.Equal(7, cell.RuntimeGcMillis);
        Assert.NotNull(cell.CpuMillisPerThousandMessages);
        Assert.NotNull(cell.CpuPercentOfCore);

        using var md = new StringWriter();
        DefaultExporters.Markdown.Export(result, md);
        Assert.Contains("## Resources", md.ToString(), StringComparison.Ordinal);
        Assert.Contains("| 0.250 | 125.000 | 0.400 | 2.000 |", md.ToString(), StringComparison.Ordinal);
        using var csv = new StringWriter();
        DefaultExporters.Csv.Export(result, csv);
        Assert.Contains("brokerCpuSeconds", csv.ToString().Split('\n')[0], StringComparison.Ordinal);
        Assert.DoesNotContain("proxy CPU", md.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tables_RunsThroughShapingProxies_ShowTheProxiesCpuBesideTheClients()
    {
        var plan = new BenchmarkPlanBuilder().Clients("probed").Scenarios(ScenarioKind.Produce).MessageCounts(2_000).PayloadSizes(100).Repeat(3).Build();
        var runner = new BenchmarkRunner(new ClientRegistry([new ProbedFactory()]), ClusterConnection.None with { BrokerProbe = new FakeBroker() });
        var plain = await runner.RunAsync(plan, cancellationToken: TestRunContext.Current);
        double[] proxyCpu = [0.5, 0.125, 0.25, 9.0];
        var shaped = ResultSummarizer.Complete(plain, [.. plain.Runs.Select((r, i) => r with { Network = new NetworkRecord { Asked = "rtt=0ms", ProxyCpuSeconds = proxyCpu[i] } })]);

        Assert.Equal(0.25, shaped.Cells[0].Resources!.ProxyCpuSeconds!.Value, 9); // the measured runs' median; the warm-up's 0.5 left out
        using var md = new StringWriter();
        DefaultExporters.Markdown.Export(shaped, md);
        var resources = md.ToString()[md.ToString().IndexOf("## Resources", StringComparison.Ordinal)..];
        Assert.Contains("| proxy CPU s |", resources, StringComparison.Ordinal);
        Assert.Contains("| 0.250 |\n", resources.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Contains("proxy CPU = every shaping proxy thread's", resources, StringComparison.Ordinal);
    }

    [Fact]
    public void CellResources_NoRunRecordedAny_IsNull() => Assert.Null(CellResources.Of([]));

    [Fact]
    public void ProcessResources_Now_AllocatesNothing()
    {
        ProcessResources.Now();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1_000; i++) ProcessResources.Now();
        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }

    /// <summary>Proxies whose threads ran <c>step</c> seconds more at every reading.</summary>
    private sealed class FakeShaper(double step) : INetworkShaper
    {
        private double _cpu;

        public int Readings { get; private set; }

        public double? CpuSeconds
        {
            get
            {
                Readings++;
                return _cpu += step;
            }
        }

        public long ForwardedBytes => 0;

        public Task<NetworkRecord> ShapeAsync(NetworkSpec spec, CancellationToken cancellationToken) => Task.FromResult(new NetworkRecord { Asked = spec.ToString() });
    }

    private static async Task<ScenarioContext> ContextAsync(IBenchClient client, long count, IBrokerProbe? broker)
    {
        await client.CreateTopicAsync(new TopicSpec("t"), TestRunContext.Current);
        return new ScenarioContext
        {
            Client = client, Topic = "t", MessageCount = count, Payload = new byte[100], Settings = ClientSettings.SeedProfile, Broker = broker,
        };
    }

    /// <summary>Each CPU reading is 0.25 s after the one before; a topic takes twice its payload on disk.</summary>
    private sealed class FakeBroker : IBrokerProbe
    {
        private double _cpuSeconds;

        public List<string> DiskReads { get; } = [];

        public TimeSpan? ReadCpuTime()
        {
            lock (DiskReads) return TimeSpan.FromSeconds(_cpuSeconds += 0.25);
        }

        public long? TopicBytesOnDisk(string topic)
        {
            lock (DiskReads) DiskReads.Add(topic);
            return 2 * 100 * (topic == "t" ? 1_000 : 2_000);
        }
    }

    private sealed class ProbedFactory : IBenchClientFactory
    {
        public string Name => "probed";

        public string Description => "test";

        public bool RequiresBroker => false;

        public IBenchClient Create(KafkaEndpoint endpoint) => new ProbedClient(allocateBytesPerSend: 0);
    }

    /// <summary>The in-memory client with a runtime whose collections take 7 ms per reading, optionally allocating per send.</summary>
    private sealed class ProbedClient(int allocateBytesPerSend) : IBenchClient, IRuntimeProbe
    {
        private readonly InMemoryClient _inner = new(new InMemoryClientOptions { Name = "probed" });
        private long _gcMillis;
        private long _gcCount;

        public string Name => _inner.Name;

        public string LibraryVersion => _inner.LibraryVersion;

        public ClientCapabilities Capabilities => _inner.Capabilities;

        public RuntimeReading ReadRuntime() => new(_gcCount++, _gcMillis += 7, 2_000_000);

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
        {
            var producer = _inner.CreateProducer(spec, sink);
            return allocateBytesPerSend == 0 ? producer : new AllocatingProducer(producer, allocateBytesPerSend);
        }

        public IBenchConsumer CreateConsumer(ConsumerSpec spec) => _inner.CreateConsumer(spec);

        public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken) => _inner.CreateTopicAsync(topic, cancellationToken);

        public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) => _inner.DeleteTopicAsync(topic, cancellationToken);

        public ValueTask DisposeAsync() => _inner.DisposeAsync();
    }

    private sealed class AllocatingProducer(IBenchProducer inner, int bytes) : IBenchProducer
    {
        public static byte[]? Last { get; private set; }

        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public void Send(long key, ReadOnlyMemory<byte> value)
        {
            Last = new byte[bytes];
            inner.Send(key, value);
        }

        public void Flush(CancellationToken cancellationToken) => inner.Flush(cancellationToken);

        public void Dispose() => inner.Dispose();
    }
}
