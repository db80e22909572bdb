using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Measurement;

namespace KafkaPerf.Adapters.Tests;

/// <summary>Reads a topic back with a plain Confluent.Kafka consumer, independent of the client under test.</summary>
internal static class ReadBack
{
    /// <summary>Every key (8 bytes, big-endian) and whether each value equals <paramref name="payload"/>.</summary>
    /// <param name="bootstrap">The broker.</param>
    /// <param name="topic">The topic.</param>
    /// <param name="count">The records expected.</param>
    /// <param name="payload">The value every record should have.</param>
    /// <returns>The keys seen, and how many values differed.</returns>
    public static (KeyVerifier Verifier, int PayloadMismatches) Topic(string bootstrap, string topic, long count, byte[] payload)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        var verifier = new KeyVerifier(count);
        int mismatches = 0;
        using var consumer = new ConsumerBuilder<byte[], byte[]>(new ConsumerConfig
        {
            BootstrapServers = bootstrap, GroupId = "readback-" + Guid.NewGuid().ToString("N"),
            AutoOffsetReset = AutoOffsetReset.Earliest, EnableAutoCommit = false,
        }).Build();
        consumer.Subscribe(topic);
        var deadline = DateTime.UtcNow.AddMinutes(2);
        while (verifier.Distinct + verifier.Duplicates + verifier.Unexpected < count && DateTime.UtcNow < deadline)
        {
            var record = consumer.Consume(TimeSpan.FromMilliseconds(200));
            if (record is null) continue;
            verifier.Observe(record.Message.Key.Length == 8 ? BinaryPrimitives.ReadInt64BigEndian(record.Message.Key) : -1);
            if (!record.Message.Value.AsSpan().SequenceEqual(payload)) mismatches++;
        }
        consumer.Close();
        return (verifier, mismatches);
    }
}
