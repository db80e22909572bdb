using System.Buffers.Binary;
using System.Text;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Keys, headers and idempotence (<c>--keys</c>, <c>--headers</c>, <c>--idempotence</c>) on the real embedded
/// broker, for every built-in client: each key mode produces the keys it names, placed on the partition Kafka's own
/// partitioner (murmur2) gives them in both clients; headers arrive; and delivery is still verified record by record when
/// keys repeat or are absent.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class WorkloadTests(BrokerFixture fixture)
{
    private const int Partitions = 12;
    private const int Count = 6_000;

    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    public static TheoryData<string, string> ClientsAndModes()
    {
        var data = new TheoryData<string, string>();
        foreach (var client in new[] { "confluent", "confluent-async", "java", "java-batched", "java-records" })
            foreach (var mode in new[] { "none", "fixed", "random:10", "zipf:50:1.1" })
                data.Add(client, mode);
        return data;
    }

    [Theory]
    [MemberData(nameof(ClientsAndModes))]
    public async Task Produce_EachKeyModeSendsItsKeysOnMurmur2PartitionsWithTheHeaders(string clientName, string mode)
    {
        var keys = KeySpec.Parse(mode);
        var settings = new ClientSettings { LingerMs = 5, Keys = keys, Headers = new HeaderSpec(5, 32) };
        var payload = new byte[100];
        new Random(7).NextBytes(payload);
        await OnTopicAsync(clientName, async (client, topic) =>
        {
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = Count, Payload = payload, Settings = settings };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(Count, m.Delivered);
            var records = ReadAll(topic, Count);
            // Every record once, its id in its value's first 8 bytes, the payload after it.
            var verifier = new KeyVerifier(Count);
            foreach (var r in records) verifier.Observe(RecordKeys.IdOf(r.Value));
            Assert.True(verifier.IsComplete && verifier.Duplicates == 0, $"{verifier.Distinct} of {Count}, {verifier.Duplicates} duplicated, {verifier.Unexpected} unexpected");
            Assert.All(records, r => Assert.True(r.Value.AsSpan(RecordKeys.IdBytes).SequenceEqual(payload.AsSpan(RecordKeys.IdBytes))));
            // The key each id names, the same in every client (RecordKeys), on murmur2's partition.
            var expected = new RecordKeys(keys);
            foreach (var r in records)
            {
                var key = expected.KeyOf(RecordKeys.IdOf(r.Value));
                if (key is null)
                {
                    Assert.Null(r.Key);
                    continue;
                }
                Assert.Equal(Encoding.ASCII.GetString(key), r.Key is null ? "(none)" : Encoding.ASCII.GetString(r.Key));
                Assert.Equal(Murmur2Partition(key, Partitions), r.Partition);
            }
            var counts = records.Where(r => r.Key is not null).GroupBy(r => Encoding.ASCII.GetString(r.Key!)).ToDictionary(g => g.Key, g => g.Count());
            switch (keys.Mode)
            {
                case KeyMode.Fixed:
                    Assert.Equal(["00000000"], counts.Keys);
                    Assert.Single(records.Select(r => r.Partition).Distinct());
                    break;
                case KeyMode.Random:
                    Assert.Equal(10, counts.Count);
                    Assert.All(counts.Values, c => Assert.InRange(c, Count / 10 * 0.8, Count / 10 * 1.2));
                    break;
                case KeyMode.Zipf:
                    // The most common key has 1 / H(50, 1.1) of the records; the next ones fewer and fewer.
                    double first = 1 / Enumerable.Range(1, 50).Sum(k => Math.Pow(k, -1.1));
                    Assert.InRange(counts["00000000"] / (double)Count, first - 0.03, first + 0.03);
                    Assert.True(counts["00000000"] > counts["00000001"] && counts["00000001"] > counts.GetValueOrDefault("00000009"), string.Join(", ", counts.OrderBy(c => c.Key).Take(10)));
                    break;
                case KeyMode.None:
                    Assert.Empty(counts);
                    break;
            }
            // Five headers of 32 bytes on every record.
            Assert.All(records, r =>
            {
                Assert.Equal(["h0", "h1", "h2", "h3", "h4"], r.Headers.Select(h => h.Key));
                for (int i = 0; i < 5; i++) Assert.Equal(new HeaderSpec(5, 32).Value(i), r.Headers[i].GetValueBytes());
            });
            await Task.CompletedTask;
        }, Partitions);
    }

    [Theory]
    [InlineData("confluent", "zipf:20:1.2")]
    [InlineData("confluent", "none")]
    [InlineData("confluent-records", "none")]
    [InlineData("java", "zipf:20:1.2")]
    [InlineData("java", "none")]
    [InlineData("java-records", "random:3")]
    public async Task Consume_RepeatedOrAbsentKeys_AnInjectedLossAndDuplicateAreCaught(string clientName, string mode)
    {
        const int Records = 1_000;
        var settings = new ClientSettings { Keys = KeySpec.Parse(mode) };
        await OnTopicAsync(clientName, async (client, topic) =>
        {
            // Written by a plain producer: id 500 never, id 250 twice, with the mode's keys.
            var keys = new RecordKeys(settings.Keys!);
            var ids = Enumerable.Range(0, Records).Where(i => i != 500).Append(250).ToList();
            using (var producer = new ProducerBuilder<byte[]?, byte[]>(new ProducerConfig { BootstrapServers = fixture.Broker.BootstrapServers }).Build())
            {
                foreach (var id in ids)
                {
                    var value = new byte[64];
                    BinaryPrimitives.WriteInt64BigEndian(value, id);
                    producer.Produce(topic, new Message<byte[]?, byte[]> { Key = keys.KeyOf(id)?.ToArray(), Value = value });
                }
                producer.Flush(TestPaths.Timeout());
            }
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = Records, Payload = new byte[64], Settings = settings };
            var sink = new CountingSink(Records);
            using var consumer = context.CreateConsumer(TestPaths.Timeout());
            consumer.StartPolling(sink);
            var deadline = DateTime.UtcNow.AddSeconds(60);
            while (sink.Received < ids.Count && DateTime.UtcNow < deadline) await Task.Delay(50, TestContext.Current.CancellationToken);
            consumer.StopPolling();

            Assert.Null(sink.Error);
            Assert.Equal(ids.Count, sink.Received);
            Assert.Equal(1, sink.Verifier.Lost);
            Assert.Equal(1, sink.Verifier.Duplicates);
            Assert.Equal(0, sink.Verifier.Unexpected);
        }, 3);
    }

    [Theory]
    [InlineData("confluent", true)]
    [InlineData("confluent", false)]
    [InlineData("java", true)]
    [InlineData("java", false)]
    public async Task Idempotence_TheKnobReachesEachClient(string clientName, bool on)
    {
        var settings = new ClientSettings { Acks = AcksMode.All, Idempotence = on };
        await OnTopicAsync(clientName, async (client, topic) =>
        {
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = 100, Payload = new byte[10], Settings = settings };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(on ? "true" : "false", m.ProducerConfig!["enable.idempotence"]);
            await Task.CompletedTask;
        }, 1);
    }

    [Fact]
    public void ParityAudit_LibrdkafkasOwnPartitionerWithKeys_Warned()
    {
        var keyed = new ClientSettings { Keys = KeySpec.Parse("zipf:100:1"), Overrides = new Dictionary<string, string> { ["partitioner"] = "consistent_random" } };

        var warning = Assert.Single(new ConfluentClientFactory().SettingsWarnings(keyed));

        Assert.StartsWith("-X confluent:partitioner=consistent_random with --keys: librdkafka then places keys by another hash", warning, StringComparison.Ordinal);
        Assert.Empty(new ConfluentClientFactory().SettingsWarnings(keyed with { Overrides = new Dictionary<string, string>() }));
        Assert.Empty(new ConfluentClientFactory().SettingsWarnings(keyed with { Keys = null }));
    }

    /// <summary>Kafka's default partitioner for a keyed record: murmur2 of the key, made positive, modulo the partitions
    /// (written here from the algorithm, independently of either client).</summary>
    internal static int Murmur2Partition(byte[] key, int partitions)
    {
        const uint M = 0x5bd1e995;
        const int R = 24;
        int length = key.Length;
        uint h = 0x9747b28c ^ (uint)length;
        int blocks = length / 4;
        for (int i = 0; i < blocks; i++)
        {
            uint k = BinaryPrimitives.ReadUInt32LittleEndian(key.AsSpan(i * 4));
            k *= M;
            k ^= k >> R;
            k *= M;
            h *= M;
            h ^= k;
        }
        int tail = blocks * 4;
        switch (length % 4)
        {
            case 3:
                h ^= (uint)key[tail + 2] << 16;
                goto case 2;
            case 2:
                h ^= (uint)key[tail + 1] << 8;
                goto case 1;
            case 1:
                h ^= key[tail];
                h *= M;
                break;
        }
        h ^= h >> 13;
        h *= M;
        h ^= h >> 15;
        return (int)(((int)h & 0x7fffffff) % partitions);
    }


    private Task OnTopicAsync(string clientName, Func<IBenchClient, string, Task> test, int partitions) =>
        TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, test, partitions);

    private sealed record Consumed(byte[]? Key, byte[] Value, int Partition, Headers Headers);

    private List<Consumed> ReadAll(string topic, int count)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        var records = new List<Consumed>();
        using var consumer = new ConsumerBuilder<byte[]?, byte[]>(new ConsumerConfig
        {
            BootstrapServers = fixture.Broker.BootstrapServers, GroupId = "readback-" + Guid.NewGuid().ToString("N"),
            AutoOffsetReset = AutoOffsetReset.Earliest, EnableAutoCommit = false,
        }).Build();
        consumer.Subscribe(topic);
        var deadline = DateTime.UtcNow.AddMinutes(1);
        while (records.Count < count && DateTime.UtcNow < deadline)
        {
            var r = consumer.Consume(TimeSpan.FromMilliseconds(200));
            if (r is not null) records.Add(new Consumed(r.Message.Key, r.Message.Value, r.Partition.Value, r.Message.Headers));
        }
        consumer.Close();
        return records;
    }

    private sealed class CountingSink(long expected) : IRecordSink
    {
        private long _received;

        public KeyVerifier Verifier { get; } = new(expected);

        public long Received => Interlocked.Read(ref _received);

        public string? Error { get; private set; }

        public void OnAssigned()
        {
        }

        public void OnRecord(long key, ReadOnlySpan<byte> value)
        {
            lock (Verifier) Verifier.Observe(key);
            Interlocked.Increment(ref _received);
        }

        public void OnError(string reason) => Error = reason;
    }
}
