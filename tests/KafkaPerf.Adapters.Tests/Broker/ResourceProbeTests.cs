using Confluent.Kafka;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>Each run's resources on the real embedded broker: its CPU, the topic's bytes on disk, the JVM's collections.</summary>
[Collection(ProcessCountersCollectionDefinition.Name)]
public sealed class ResourceProbeTests(BrokerFixture fixture)
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion) { BrokerProbe = fixture.Broker.Probe };

    [Fact]
    public void ParseCpuTime_CommandNameWithSpacesAndParentheses_ReadsUserPlusSystemTicks()
    {
        // Fields 14 and 15 (utime, stime) are 250 and 50 ticks of 10 ms.
        const string Stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 1000 5000000 2000 18446744073709551615";

        Assert.Equal(TimeSpan.FromSeconds(3), EmbeddedBrokerProbe.ParseCpuTime(Stat));
        Assert.Null(EmbeddedBrokerProbe.ParseCpuTime("garbage"));
    }

    [Fact]
    public void TopicBytesOnDisk_PartitionFolders_CountsOnlyThisTopicsSegments()
    {
        var dir = Directory.CreateTempSubdirectory("kafkaperf-probe-test-");
        try
        {
            void Write(string relative, int bytes)
            {
                var path = Path.Combine(dir.FullName, relative);
                Directory.CreateDirectory(Path.GetDirectoryName(path)!);
                File.WriteAllBytes(path, new byte[bytes]);
            }
            Write("t-0/00000000000000000000.log", 1_000);
            Write("t-0/00000000000000000000.index", 10_485_760);
            Write("t-1/00000000000000000000.log", 300);
            Write("t-x-0/00000000000000000000.log", 7);
            Write("t-0.5f1e-delete/00000000000000000000.log", 11);
            var probe = new EmbeddedBrokerProbe(Environment.ProcessId, dir.FullName);

            Assert.Equal(1_300, probe.TopicBytesOnDisk("t"));
            Assert.Equal(7, probe.TopicBytesOnDisk("t-x"));
            Assert.Null(probe.TopicBytesOnDisk("missing"));
            Assert.True(probe.ReadCpuTime() > TimeSpan.Zero);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task RunAsync_ConfluentProducesRandomPayload_BrokerCpuAndAtLeastThePayloadOnDisk()
    {
        // 100 MB a run: the broker's CPU time is read in ticks of 10 ms, and a warm broker wrote 10 MB in less than one
        // (CI saw 0 for two of three runs of 10 000 records).
        var prefix = "kafkaperf-resources-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce)
            .MessageCounts(100_000).PayloadSizes(1_000).Repeat(2).Payload(PayloadKind.Random).Topics(prefix).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory()]), Connection).RunAsync(plan, cancellationToken: TestPaths.Timeout());

        Assert.All(result.Runs, r =>
        {
            Assert.True(r.Succeeded, r.Error);
            var x = r.Resources!;
            Assert.True(x.CpuSeconds > 0, $"client CPU {x.CpuSeconds}");
            Assert.True(x.BrokerCpuSeconds > 0, $"broker CPU {x.BrokerCpuSeconds}");
            Assert.True(x.TopicBytesOnDisk >= 100_000L * 1_000, $"{x.TopicBytesOnDisk} bytes on disk");
            Assert.InRange(x.DiskBytesPerPayloadByte!.Value, 1.0, 1.2);
            Assert.Null(x.RuntimeHeapUsedBytes);
        });
        Assert.NotNull(result.Cells.Single().Resources!.BrokerCpuMillisPerThousandMessages);
        Assert.Empty(await ListTopicsAsync(prefix));
    }

    [Fact]
    public async Task RunAsync_AccessLogWithLz4_FarFewerBytesOnDiskThanUncompressed()
    {
        var prefix = "kafkaperf-resources-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder().Clients("confluent").Scenarios(ScenarioKind.Produce)
            .MessageCounts(10_000).PayloadSizes(1_000).Repeat(1).Payload(PayloadKind.AccessLog)
            .Compression(CompressionCodec.None, CompressionCodec.Lz4).Topics(prefix).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([new ConfluentClientFactory()]), Connection).RunAsync(plan, cancellationToken: TestPaths.Timeout());

        var measured = result.Runs.Where(r => !r.IsWarmup).ToList();
        Assert.All(measured, r => Assert.True(r.Succeeded, r.Error));
        var plain = measured.Single(r => r.Variant.Contains("none", StringComparison.Ordinal)).Resources!;
        var lz4 = measured.Single(r => r.Variant.Contains("lz4", StringComparison.Ordinal)).Resources!;
        Assert.True(plain.DiskBytesPerPayloadByte >= 1.0, $"uncompressed: {plain.DiskBytesPerPayloadByte}");
        Assert.True(lz4.TopicBytesOnDisk * 3 < plain.TopicBytesOnDisk, $"lz4 {lz4.TopicBytesOnDisk} B, uncompressed {plain.TopicBytesOnDisk} B");
        Assert.Empty(await ListTopicsAsync(prefix));
    }

    [Fact]
    public async Task RunAsync_JavaProduce_RecordsJvmCollectionsAndHeapWithoutCountingTheirJniCalls()
    {
        var prefix = "kafkaperf-resources-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder().Clients("java").Scenarios(ScenarioKind.Produce)
            .MessageCounts(100_000).PayloadSizes(1_000).Repeat(1).Topics(prefix).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([new JavaClientFactory(false, JavaTestJvm.Options)]), Connection)
            .RunAsync(plan, cancellationToken: TestPaths.Timeout());

        Assert.All(result.Runs, r =>
        {
            Assert.True(r.Succeeded, r.Error);
            var x = r.Resources!;
            Assert.True(x.RuntimeHeapUsedBytes > 0);
            Assert.True(x.RuntimeGcMillis >= 0);
            Assert.True(x.RuntimeGcCount >= 0);
            Assert.True(x.BrokerCpuSeconds > 0, $"broker CPU {x.BrokerCpuSeconds}");
            // The three calls that read the JVM's figures lie outside the counted section: one call per record, exactly.
            Assert.Equal(1.0, r.CountersPerMessage!["jni.calls"], 0.001);
        });
        var cell = result.Cells.Single().Resources!;
        Assert.NotNull(cell.RuntimeHeapUsedBytes);
        Assert.Equal(1.0, cell.CountersPerMessage!["jni.calls"], 0.001);
        Assert.Empty(await ListTopicsAsync(prefix));
    }

    private async Task<List<string>> ListTopicsAsync(string prefix)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Broker.BootstrapServers }).Build();
        await Task.Yield();
        return [.. admin.GetMetadata(TimeSpan.FromSeconds(10)).Topics.Select(t => t.Topic).Where(t => t.StartsWith(prefix, StringComparison.Ordinal))];
    }
}
