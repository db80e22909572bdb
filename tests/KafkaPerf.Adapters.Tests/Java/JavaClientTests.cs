using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Java;

/// <summary>
/// <c>java</c> and <c>java-batched</c> on the real embedded broker, in this test process's JVM, which runs with
/// <c>-Xcheck:jni</c>: every test ends by checking that the JVM reported nothing.
/// </summary>
[Collection(ProcessCountersCollectionDefinition.Name)]
public sealed partial class JavaClientTests(BrokerFixture fixture) : IDisposable
{
    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    public static TheoryData<string, string, int> Cases()
    {
        var data = new TheoryData<string, string, int>();
        foreach (var client in new[] { JavaClientFactory.PerRecordName, JavaClientFactory.BatchedName, JavaClientFactory.RecordsName })
        {
            foreach (var scenario in new[] { "produce", "consume", "consume-prefetch", "roundtrip" })
            {
                foreach (var size in new[] { 100, 100_000 }) data.Add(client, scenario, size);
            }
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Scenario_10kSmallOr2kLargeRecords_EveryKeyExactlyOnce(string client, string scenario, int payloadBytes)
    {
        // 2 000 records of 100 KB are still 200 full 1 MiB batches of java-batched, and fetches of as many; the 10 000 these
        // cases once sent were 1 GB each and took 10-26 s (166 s of the 12 in CI, in the broker collection's one line).
        int count = payloadBytes >= 100_000 ? 2_000 : 10_000;
        var payload = new byte[payloadBytes];
        new Random(payloadBytes).NextBytes(payload);
        await OnTemporaryTopicAsync(client, async (c, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = c, Topic = topic, MessageCount = count, Payload = payload, Settings = ClientSettings.SeedProfile,
                UsePrefetch = scenario == "consume-prefetch", CheckPayload = true,
            };

            switch (scenario)
            {
                case "produce":
                {
                    var m = Scenario.Produce.Run(context, TestPaths.Timeout());
                    Assert.Null(m.Error);
                    Assert.Equal(count, m.Delivered);
                    Assert.Equal(count, m.LatencyHistogram!.TotalCount);
                    // Read back by another client (librdkafka): keys 0..N-1 once each, big-endian, payload intact.
                    var (verifier, mismatches) = ReadBack(topic, count, payload);
                    Assert.True(verifier.IsComplete, $"{verifier.Distinct} of {count} keys, {verifier.Unexpected} unexpected");
                    Assert.Equal(0, verifier.Duplicates);
                    Assert.Equal(0, verifier.Unexpected);
                    Assert.Equal(0, mismatches);
                    // java: one call per record; java-batched: one per full buffer (1 MiB or 1 000 records), plus the flush;
                    // java-records: Long.valueOf, new ProducerRecord, new callback and send - four per record.
                    double perBatch = Math.Min(1_000, (1 << 20) / (12 + payloadBytes));
                    double expected = client switch { JavaClientFactory.BatchedName => 1 / perBatch, JavaClientFactory.RecordsName => 4.0, _ => 1.0 };
                    Assert.Equal(expected, m.CountersPerMessage!["jni.calls"], 0.005);
                    Assert.Equal(1.0, m.CountersPerMessage!["jni.callbacks"], 0.01);
                    break;
                }
                case "consume" or "consume-prefetch":
                {
                    var m = Scenario.Consume.Run(context, TestPaths.Timeout());
                    Assert.Null(m.Error);
                    Assert.Equal(count, m.Received);
                    Assert.Equal(0, m.Lost);
                    Assert.Equal(0, m.Duplicates);
                    Assert.Equal(0, m.Unexpected);
                    Assert.Equal(0, m.PayloadMismatches);
                    Assert.Equal(context.UsePrefetch, m.PrefetchEnabled);
                    if (client == JavaClientFactory.RecordsName)
                    {
                        // Iterated from .NET: hasNext, next, key, value, partition and offset per record, plus a poll and an
                        // iterator per batch.
                        Assert.InRange(m.CountersPerMessage!["jni.calls"], 6.0, 6.5);
                    }
                    else
                    {
                        // Records cross in batches: far fewer calls than records.
                        Assert.True(m.CountersPerMessage!["jni.calls"] < 0.5, $"{m.CountersPerMessage["jni.calls"]} JNI calls per record");
                    }
                    break;
                }
                default:
                {
                    var m = Scenario.Roundtrip.Run(context, TestPaths.Timeout());
                    Assert.Null(m.Error);
                    Assert.Equal(count, m.Delivered);
                    Assert.Equal(count, m.Received);
                    Assert.Equal(0, m.Lost);
                    Assert.Equal(count, m.LatencyHistogram!.TotalCount);
                    Assert.True(m.LatencyHistogram.GetValueAtPercentile(50) > 0);
                    break;
                }
            }
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData(JavaClientFactory.PerRecordName)]
    [InlineData(JavaClientFactory.BatchedName)]
    public async Task Produce_OneMillion100ByteRecords_EveryRecordAcknowledged(string client)
    {
        await OnTemporaryTopicAsync(client, async (c, topic) =>
        {
            var context = new ScenarioContext
            {
                Client = c, Topic = topic, MessageCount = 1_000_000, Payload = new byte[100], Settings = ClientSettings.SeedProfile,
            };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout(5));

            Assert.Null(m.Error);
            Assert.Equal(1_000_000, m.Delivered);
            Assert.Equal(0, m.Lost);
            Assert.Equal(8, m.LatencySampleStride);
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData(JavaClientFactory.PerRecordName)]
    [InlineData(JavaClientFactory.BatchedName)]
    public async Task Send_100kRecords_NoManagedAllocationOnTheSendingThread(string client)
    {
        await OnTemporaryTopicAsync(client, async (c, topic) =>
        {
            var sink = new CountingSink();
            long allocated = -1;
            Exception? failure = null;
            var sender = new Thread(() =>
            {
                try
                {
                    using var producer = c.CreateProducer(new ProducerSpec(topic, ClientSettings.SeedProfile), sink);
                    ReadOnlyMemory<byte> payload = new byte[100];
                    for (long key = 0; key < 1_000; key++) producer.Send(key, payload);
                    long before = GC.GetAllocatedBytesForCurrentThread();
                    for (long key = 1_000; key < 101_000; key++) producer.Send(key, payload);
                    allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                    producer.Flush(CancellationToken.None);
                }
                catch (Exception ex)
                {
                    failure = ex;
                }
            });
            sender.Start();
            sender.Join();

            Assert.Null(failure);
            Assert.Equal(101_000, sink.Delivered);
            // The JNI path (arguments on the stack, Java arrays and buffers outside the managed heap) allocates nothing per record.
            Assert.True(allocated < 1_000, $"{allocated} bytes allocated for 100 000 sends");
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData(JavaClientFactory.PerRecordName)]
    [InlineData(JavaClientFactory.BatchedName)]
    public async Task Consume_RecordsLargerThanEveryBuffer_BuffersGrowAndEveryPayloadIsIntact(string client)
    {
        // 100 KB records through 64 KiB buffers: the batched producer and the consumer must both grow theirs.
        var options = JavaTestJvm.Options with { BatchBytes = 64 * 1024, ConsumerBufferBytes = 64 * 1024 };
        await using var c = new JavaClientFactory(client == JavaClientFactory.BatchedName, options).Create(Connection.Endpoint);
        var topic = "kafkaperf-java-test-" + Guid.NewGuid().ToString("N");
        await c.CreateTopicAsync(new TopicSpec(topic), TestPaths.Timeout());
        try
        {
            var payload = new byte[100_000];
            new Random(3).NextBytes(payload);
            var context = new ScenarioContext
            {
                Client = c, Topic = topic, MessageCount = 500, Payload = payload, Settings = ClientSettings.ClientDefaults, CheckPayload = true,
            };

            var m = Scenario.Consume.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(500, m.Received);
            Assert.Equal(0, m.PayloadMismatches);
            Assert.Equal(0, m.Lost);
        }
        finally
        {
            await c.DeleteTopicAsync(topic, TestPaths.Timeout());
        }
    }

    [Fact]
    public async Task Flush_Cancelled_EndsWithOperationCanceledInsteadOfWaitingForTheBroker()
    {
        // A producer whose records cannot be delivered (the topic is deleted under it) would flush for delivery.timeout.ms.
        await using var c = new JavaClientFactory(false, JavaTestJvm.Options).Create(Connection.Endpoint);
        var topic = "kafkaperf-java-test-" + Guid.NewGuid().ToString("N");
        await c.CreateTopicAsync(new TopicSpec(topic), TestPaths.Timeout());
        Exception? outcome = null;
        var watch = System.Diagnostics.Stopwatch.StartNew();
        var sender = new Thread(() =>
        {
            try
            {
                var settings = new ClientSettings { Overrides = new Dictionary<string, string> { ["linger.ms"] = "60000", ["batch.size"] = "1000000" } };
                using var producer = c.CreateProducer(new ProducerSpec(topic, settings), new CountingSink());
                for (long key = 0; key < 100; key++) producer.Send(key, new byte[10]);
                c.DeleteTopicAsync(topic, TestPaths.Timeout()).AsTask().GetAwaiter().GetResult();
                using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(1));
                producer.Flush(cancel.Token);
            }
            catch (Exception ex)
            {
                outcome = ex;
            }
        });
        sender.Start();
        sender.Join();

        Assert.IsType<OperationCanceledException>(outcome);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(45), $"took {watch.Elapsed}");
    }

    [Fact]
    public async Task CreateProducer_InvalidJavaSetting_JavaExceptionCarriesTheJavaMessage()
    {
        await OnTemporaryTopicAsync(JavaClientFactory.PerRecordName, async (c, topic) =>
        {
            var settings = new ClientSettings { Overrides = new Dictionary<string, string> { ["acks"] = "banana" } };

            var ex = Assert.Throws<JavaException>(() => c.CreateProducer(new ProducerSpec(topic, settings), new CountingSink()));

            Assert.Equal("org.apache.kafka.common.config.ConfigException", ex.JavaClass);
            Assert.Contains("banana", ex.JavaMessage, StringComparison.Ordinal);
            Assert.Contains("acks", ex.Message, StringComparison.Ordinal);
            Assert.Contains("at org.apache.kafka", ex.JavaStackTrace, StringComparison.Ordinal);
            await Task.CompletedTask;
        });
    }
    [Fact]
    public async Task CreateProducer_CommonSettings_MappedToJavaKeysWithEveryDefaultRecorded()
    {
        await OnTemporaryTopicAsync(JavaClientFactory.BatchedName, async (c, topic) =>
        {
            var settings = new ClientSettings
            {
                Acks = AcksMode.Leader, LingerMs = 100, BatchSizeBytes = 1_000_000, MaxInFlight = 1_000_000, Compression = CompressionCodec.Lz4,
                SendBufferBytes = 1 << 20, ReceiveBufferBytes = 1 << 21,
            };

            using var producer = c.CreateProducer(new ProducerSpec(topic, settings), new CountingSink());
            var config = producer.EffectiveConfig;

            Assert.Equal("1", config["acks"]);
            Assert.Equal("100", config["linger.ms"]);
            Assert.Equal("1000000", config["batch.size"]);
            Assert.Equal("1000000", config["max.in.flight.requests.per.connection"]);
            Assert.Equal("lz4", config["compression.type"]);
            Assert.Equal("1048576", config["send.buffer.bytes"]);
            Assert.Equal("2097152", config["receive.buffer.bytes"]);
            Assert.Equal("false", config["enable.idempotence"]);
            Assert.Equal("33554432", config["buffer.memory"]);
            Assert.True(config.Count > 50, $"only {config.Count} keys: the Java client's defaults are missing");
            await Task.CompletedTask;
        });
    }

    [Fact]
    public async Task RunAsync_ConfluentAndBothJavaClients_AllSucceedWithJavaDetailsAndNoTopicLeft()
    {
        var prefix = "kafkaperf-java-e2e-" + Guid.NewGuid().ToString("N")[..8];
        var plan = new BenchmarkPlanBuilder()
            .Clients("java", "java-batched")
            .Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip)
            .MessageCounts(2_000).PayloadSizes(1_000).Repeat(2)
            .Topics(prefix)
            .Build();
        var registry = new ClientRegistry([new JavaClientFactory(false, JavaTestJvm.Options), new JavaClientFactory(true, JavaTestJvm.Options)]);

        var result = await new BenchmarkRunner(registry, Connection).RunAsync(plan, cancellationToken: TestPaths.Timeout(5));

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, $"run {r.Sequence} ({r.Client} {r.Scenario}) failed: {r.Error}"));
        Assert.Equal(2 * 3 * (2 + 1), result.Runs.Count);
        Assert.All(result.Clients, info =>
        {
            Assert.Equal("4.3.1", info.Details!["kafka-clients"]);
            Assert.Contains("in-process through JNI", info.Details["jvm"], StringComparison.Ordinal);
            Assert.StartsWith("Apache Kafka client 4.3.1", info.LibraryVersion, StringComparison.Ordinal);
        });
        Assert.All(result.Runs, r => Assert.NotNull(r.CountersPerMessage));
        Assert.Empty(await ListTopicsAsync(prefix));
    }

    [Fact]
    public async Task CreateTopicAsync_TopicExists_TopicExistsException()
    {
        await OnTemporaryTopicAsync(JavaClientFactory.PerRecordName, async (c, topic) =>
        {
            var ex = await Assert.ThrowsAsync<TopicExistsException>(async () => await c.CreateTopicAsync(new TopicSpec(topic), TestPaths.Timeout()));

            Assert.Equal(topic, ex.Topic);
        });
    }

    [Fact]
    public void NullReferenceExceptions_WhileGcsRun_ProcessSurvives()
    {
        // The failure this guards against is a crash of the whole test process ("stack smashing detected", or SIGSEGV),
        // which DOTNET_EnableAlternateStackCheck=1 (set by tests/kafkaperf.runsettings) prevents. Two threads throw while a
        // third collects in a loop, for at most 5 s rather than a fixed count: 100 000 exceptions once took 714 s in CI.
        // Started without the variable, the test process crashed (SIGSEGV) in 22 of 22 runs of this test, each within
        // its first 1.3 s and 150 exceptions.
        Assert.NotNull(JavaTestJvm.Host);
        var budget = TimeSpan.FromSeconds(5);
        using var stop = new CancellationTokenSource();
        int collections = 0;
        var collector = new Thread(() =>
        {
            // Mostly gen-0 collections: each suspends every thread as a full one does, which is what the crash needs, but
            // is short. Full collections only, late in a run when the heap is large, left the throwers 2 exceptions in 5 s.
            while (!stop.IsCancellationRequested)
            {
                GC.Collect(collections % 10 == 0 ? 2 : 0);
                Interlocked.Increment(ref collections);
            }
        }) { IsBackground = true };
        collector.Start();
        int caught = 0;
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        var throwers = Enumerable.Range(0, 2).Select(_ => new Thread(() =>
        {
            while (Volatile.Read(ref caught) < 100_000 && System.Diagnostics.Stopwatch.GetElapsedTime(started) < budget)
            {
                try
                {
                    Dereference(null);
                }
                catch (NullReferenceException)
                {
                    Interlocked.Increment(ref caught);
                }
            }
        })).ToList();
        throwers.ForEach(t => t.Start());
        throwers.ForEach(t => t.Join());
        stop.Cancel();
        collector.Join();

        // Exceptions and collections did overlap, more of both than the crash needed.
        Assert.True(caught >= 100, $"only {caught} exceptions in {budget.TotalSeconds} s");
        Assert.True(collections >= 10, $"only {collections} collections in {budget.TotalSeconds} s");
    }

    [Fact]
    public void CheckJni_IsOnAndItsReportsAreCaptured()
    {
        // A deliberate excess of local references in one attached thread: -Xcheck:jni reports it through the vfprintf
        // hook. This shows the JVM runs with -Xcheck:jni and that its reports would reach JvmHost.Messages, which the
        // other tests check to be empty.
        var host = JavaTestJvm.Host;
        Assert.Contains("-Xcheck:jni", host.Options.ExtraOptions);
        var before = JvmHost.Messages.Count;
        var thread = new Thread(() =>
        {
            using var attached = host.AttachCurrentThread("kafkaperf-test-overflow");
            var env = attached.Env;
            var refs = Enumerable.Range(0, 64).Select(i => env.NewString("x" + i)).ToList();
            refs.ForEach(env.DeleteLocalRef);
            // The check runs when a JNI function returns: one more call reports the excess.
            env.DeleteLocalRef(env.NewString("y"));
        });
        thread.Start();
        thread.Join();

        var reported = JvmHost.Messages.Skip(before).ToList();
        JvmHost.ClearMessages();
        Assert.Contains(reported, m => m.Contains("JNI local refs", StringComparison.Ordinal));
    }

    public void Dispose()
    {
        // -Xcheck:jni reports misuse as JVM messages: none may have appeared during a test.
        var messages = JvmHost.Messages;
        JvmHost.ClearMessages();
        Assert.Empty(messages);
    }

    private static int Dereference(string? text) => text!.Length;

    private (KeyVerifier Verifier, int PayloadMismatches) ReadBack(string topic, long count, byte[] payload) =>
        Tests.ReadBack.Topic(fixture.Broker.BootstrapServers, topic, count, payload);

    private async Task<List<string>> ListTopicsAsync(string prefix)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Broker.BootstrapServers }).Build();
        await Task.Yield();
        return [.. admin.GetMetadata(TimeSpan.FromSeconds(10)).Topics.Select(t => t.Topic).Where(t => t.StartsWith(prefix, StringComparison.Ordinal))];
    }

    /// <summary>Runs a test with a Java client and a fresh topic of its own, deleted afterwards whatever happens.</summary>
    private Task OnTemporaryTopicAsync(string client, Func<IBenchClient, string, Task> test)
    {
        var style = client switch { JavaClientFactory.BatchedName => JavaStyle.Batched, JavaClientFactory.RecordsName => JavaStyle.Records, _ => JavaStyle.PerRecord };
        return TemporaryTopic.RunAsync(new JavaClientFactory(style, JavaTestJvm.Options), Connection, test);
    }

    private sealed class CountingSink : IDeliverySink
    {
        private int _delivered;

        public int Delivered => Volatile.Read(ref _delivered);

        public void OnDelivered(long key) => Interlocked.Increment(ref _delivered);

        public void OnDeliveryFailed(long key, string reason)
        {
        }
    }
}

/// <summary>The test process's one JVM: -Xcheck:jni, a modest heap.</summary>
internal static class JavaTestJvm
{
    public static JavaClientOptions Options { get; } = new() { HeapMegabytes = 512, JvmOptions = ["-Xcheck:jni"] };

    public static JvmHost Host => JavaRuntime.Get(Options).Host;
}
