using System.Buffers.Binary;
using KafkaPerf.Clients;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Where a record's id travels when its key does not say it (keys other than unique): in the first 8 bytes of its value,
/// big-endian. A producer's records are stamped on the way in and a consumer's ids read on the way out, around any
/// client, so that delivery is verified record by record whatever the keys.
/// </summary>
/// <remarks>Why the value and not a header: it adds no byte to a record and no work to a client (a header would add
/// about 17 bytes and, in both clients, a header object to build and parse per record); its cost is one 8-byte write per
/// record into a copy of the payload the producer owns.</remarks>
internal static class RecordIdInValue
{
    /// <summary>The producer, stamping ids into its values when the settings need it.</summary>
    internal static IBenchProducer Wrap(IBenchProducer producer, ClientSettings settings) =>
        settings.IdInValue ? new StampingProducer(producer) : producer;

    /// <summary>The consumer, reading ids from its values when the settings need it.</summary>
    internal static IBenchConsumer Wrap(IBenchConsumer consumer, ClientSettings settings) =>
        settings.IdInValue ? new IdReadingConsumer(consumer) : consumer;

    /// <summary>Bytes at the start of a value that are not the payload's: the id's, when it travels there.</summary>
    internal static int Prefix(ClientSettings settings) => settings.IdInValue ? RecordKeys.IdBytes : 0;

    private sealed class StampingProducer(IBenchProducer inner) : IBenchProducer
    {
        private ReadOnlyMemory<byte> _source;
        private byte[] _buffer = [];

        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public void Send(long key, ReadOnlyMemory<byte> value)
        {
            if (!value.Equals(_source))
            {
                // Once per run: the payload is the same for every record.
                _source = value;
                _buffer = value.ToArray();
            }
            BinaryPrimitives.WriteInt64BigEndian(_buffer, key);
            inner.Send(key, _buffer);
        }

        public void SendBuffered() => inner.SendBuffered();

        public void Flush(CancellationToken cancellationToken) => inner.Flush(cancellationToken);

        public void Dispose() => inner.Dispose();
    }

    private sealed class IdReadingConsumer(IBenchConsumer inner) : IBenchConsumer, IGroupMember
    {
        public void Leave() => Member.Leave();

        public void Crash() => Member.Crash();

        private IGroupMember Member => inner as IGroupMember ?? throw new NotSupportedException("The client's consumer cannot leave or crash on purpose.");

        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public bool PrefetchEnabled => inner.PrefetchEnabled;

        public void StartPolling(IRecordSink sink) => inner.StartPolling(new IdReadingSink(sink));

        public void StopPolling() => inner.StopPolling();

        public void Dispose() => inner.Dispose();
    }

    private sealed class IdReadingSink(IRecordSink inner) : IRecordSink
    {
        public void OnAssigned() => inner.OnAssigned();

        public void OnRecord(long key, ReadOnlySpan<byte> value) => inner.OnRecord(RecordKeys.IdOf(value), value);

        public void OnRecordPosition(int partition, long offset) => inner.OnRecordPosition(partition, offset);

        public void OnPartitionsAssigned(IReadOnlyList<int> partitions) => inner.OnPartitionsAssigned(partitions);

        public void OnPartitionsRevoked(IReadOnlyList<int> partitions, bool lost) => inner.OnPartitionsRevoked(partitions, lost);

        public void OnError(string reason) => inner.OnError(reason);
    }
}
