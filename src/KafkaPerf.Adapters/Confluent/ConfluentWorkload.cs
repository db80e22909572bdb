using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>The workload settings (keys, headers) in Confluent.Kafka's terms.</summary>
internal static class ConfluentWorkload
{
    /// <summary>The headers every record carries, built once (librdkafka copies them on every produce); <see langword="null"/>
    /// for none.</summary>
    public static Headers? HeadersOf(ClientSettings settings)
    {
        if (settings.Headers is not { Count: > 0 } spec) return null;
        var headers = new Headers();
        for (int i = 0; i < spec.Count; i++) headers.Add(HeaderSpec.Name(i), spec.Value(i));
        return headers;
    }

    /// <summary>Makes a new producer transactional (<c>--transactions</c>), bounded by the stall timeout; disposes it when
    /// that fails, so that a failed creation leaves nothing behind.</summary>
    public static void InitTransactions<TKey, TValue>(IProducer<TKey, TValue> producer, TimeSpan timeout)
    {
        try
        {
            producer.InitTransactions(timeout);
        }
        catch
        {
            producer.Dispose();
            throw;
        }
    }

    /// <summary>A record's key from its id (<see cref="RecordKeys.KeyOf"/>): for unique keys Kafka's <c>LongSerializer</c>
    /// layout, into one reused buffer (librdkafka copies the key during <c>Produce</c>, and sends come from one thread);
    /// <see langword="null"/> (no key) for <c>--keys none</c>.</summary>
    public sealed class KeySerializer(RecordKeys keys) : ISerializer<long>
    {
        public byte[] Serialize(long data, SerializationContext context) => keys.KeyOf(data)!;
    }

    /// <summary>A key as a record id where it is one (8 bytes, big-endian), -1 otherwise: with keys that are not ids, the
    /// id is read from the value instead, and a key of any length (or none) is no error.</summary>
    public sealed class AnyKeyDeserializer : IDeserializer<long>
    {
        public static AnyKeyDeserializer Instance { get; } = new();

        public long Deserialize(ReadOnlySpan<byte> data, bool isNull, SerializationContext context) =>
            isNull || data.Length != sizeof(long) ? -1 : BinaryPrimitives.ReadInt64BigEndian(data);
    }
}
