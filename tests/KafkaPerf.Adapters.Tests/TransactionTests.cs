using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Tests.Java;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Transactions (<c>--transactions</c>, <c>--abort-ratio</c>) on the real embedded broker, for every built-in
/// client style: transactions commit and abort as the plan says, a read-committed consumer never sees an aborted record
/// (the log holds them all), and the consume scenario verifies exactly the committed ones.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class TransactionTests(BrokerFixture fixture)
{
    private const int Count = 2_000;
    private const int PerTransaction = 100;
    private const double AbortRatio = 0.3;

    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    private static ClientSettings Settings => new() { Acks = AcksMode.All, LingerMs = 5, TransactionRecords = PerTransaction, AbortRatio = AbortRatio };

    [Theory]
    [InlineData("confluent")]
    [InlineData("confluent-async")]
    [InlineData("java")]
    [InlineData("java-batched")]
    [InlineData("java-records")]
    public async Task Produce_CommitsAndAbortsAsPlanned_AReadCommittedConsumerSeesNoAbortedRecord(string clientName)
    {
        var payload = new byte[100];
        await OnTopicAsync(clientName, async (client, topic) =>
        {
            var recorder = new TransactionRecorder();
            var context = new ScenarioContext
            {
                Client = client, Topic = topic, MessageCount = Count, Payload = payload, Settings = Settings, Transactions = recorder,
            };

            var m = Scenario.Produce.Run(context, TestPaths.Timeout());

            Assert.Null(m.Error);
            Assert.Equal(Count, m.Delivered);
            Assert.Equal("true", m.ProducerConfig!["enable.idempotence"]);
            var t = recorder.Snapshot()!;
            long aborted = Enumerable.Range(0, Count / PerTransaction).Count(k => TransactionPlan.IsAborted(k, AbortRatio));
            Assert.InRange(aborted, 1, Count / PerTransaction - 1);
            Assert.Equal(aborted, t.Aborted);
            Assert.Equal(Count / PerTransaction - aborted, t.Committed);
            Assert.True(t.Latency!.P50Micros > 0);
            // Read committed: exactly the committed transactions' records. Read uncommitted: every record is in the log.
            var committed = ReadIds(topic, IsolationLevel.ReadCommitted, Count - aborted * PerTransaction);
            Assert.Equal(Count - aborted * PerTransaction, committed.Count);
            Assert.DoesNotContain(committed, id => TransactionPlan.IsAbortedRecord(id, PerTransaction, AbortRatio));
            Assert.Equal(committed.Count, committed.Distinct().Count());
            var all = ReadIds(topic, IsolationLevel.ReadUncommitted, Count);
            Assert.Equal(Count, all.Distinct().Count());
            await Task.CompletedTask;
        });
    }

    [Theory]
    [InlineData("confluent")]
    [InlineData("confluent-records")]
    [InlineData("java")]
    [InlineData("java-records")]
    public async Task Consume_WithAbortedTransactions_EveryCommittedRecordOnceAndNoAbortedOne(string clientName)
    {
        await OnTopicAsync(clientName, async (client, topic) =>
        {
            var context = new ScenarioContext { Client = client, Topic = topic, MessageCount = Count, Payload = new byte[100], Settings = Settings };

            var m = Scenario.Consume.Run(context, TestPaths.Timeout());

            Assert.True(m.Succeeded, m.Error);
            long expected = Count - TransactionPlan.AbortedRecords(Count, PerTransaction, AbortRatio);
            Assert.Equal(expected, m.Received);
            Assert.Equal(0, m.Lost);
            Assert.Equal(0, m.Unexpected);
            Assert.Equal("read_committed", m.ConsumerConfig!["isolation.level"]);
            await Task.CompletedTask;
        });
    }


    private Task OnTopicAsync(string clientName, Func<IBenchClient, string, Task> test) =>
        TemporaryTopic.RunAsync(TemporaryTopic.Factory(clientName), Connection, test);

    /// <summary>The ids of the topic's records (from their keys: unique keys), read with a plain consumer at an isolation
    /// level, until <paramref name="expected"/> arrived and nothing more for a second.</summary>
    private List<long> ReadIds(string topic, IsolationLevel isolation, long expected)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        var ids = new List<long>();
        using var consumer = new ConsumerBuilder<byte[], byte[]>(new ConsumerConfig
        {
            BootstrapServers = fixture.Broker.BootstrapServers, GroupId = "readback-" + Guid.NewGuid().ToString("N"),
            AutoOffsetReset = AutoOffsetReset.Earliest, EnableAutoCommit = false, IsolationLevel = isolation,
        }).Build();
        consumer.Subscribe(topic);
        var deadline = DateTime.UtcNow.AddSeconds(60);
        DateTime? quietSince = null;
        while (DateTime.UtcNow < deadline)
        {
            var r = consumer.Consume(TimeSpan.FromMilliseconds(200));
            if (r is not null)
            {
                ids.Add(BinaryPrimitives.ReadInt64BigEndian(r.Message.Key));
                quietSince = null;
            }
            else if (ids.Count >= expected)
            {
                quietSince ??= DateTime.UtcNow;
                if (DateTime.UtcNow - quietSince > TimeSpan.FromSeconds(1)) break;
            }
        }
        consumer.Close();
        return ids;
    }
}
