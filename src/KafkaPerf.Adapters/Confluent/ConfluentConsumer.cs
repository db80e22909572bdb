using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent</c>'s consumer: subscribes on a dedicated poll thread; the partition-assigned handler signals
/// <see cref="IRecordSink.OnAssigned"/> before any record, and every record's key and value reach the sink from
/// inside Confluent.Kafka's deserializers - the value as a span over librdkafka's buffer, never copied to an array.
/// </summary>
/// <remarks>Confluent.Kafka has no prefetch thread of the adapter's own; librdkafka always fetches ahead in the background.</remarks>
internal sealed class ConfluentConsumer : IBenchConsumer
{
    private static readonly TimeSpan PollTimeout = TimeSpan.FromMilliseconds(100);

    private readonly IConsumer<long, Null> _consumer;
    private readonly string _topic;
    private readonly RecordForwarder _forwarder = new();
    private readonly CancellationToken _cancellation;
    private Thread? _thread;
    private volatile bool _stop;

    public ConfluentConsumer(ConsumerSpec spec, string bootstrap, LibrdkafkaBinding binding)
    {
        var settings = ConfluentSettings.Consumer(bootstrap, spec.GroupId, spec.Settings);
        _topic = spec.Topic;
        _cancellation = spec.Cancellation;
        _consumer = new ConsumerBuilder<long, Null>(settings)
            .SetKeyDeserializer(_forwarder)
            .SetValueDeserializer(_forwarder)
            .SetPartitionsAssignedHandler((_, _) => _forwarder.Sink?.OnAssigned())
            .SetErrorHandler((_, error) =>
            {
                if (error.IsFatal) _forwarder.Sink?.OnError(error.Reason);
            })
            .SetLogHandler(static (_, _) => { })
            .Build();
        try
        {
            EffectiveConfig = LibrdkafkaConfigDump.Effective(binding, settings, _consumer.Handle);
        }
        catch
        {
            _consumer.Dispose();
            throw;
        }
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public bool PrefetchEnabled => false;

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer is already polling.");
        _forwarder.Sink = sink;
        _consumer.Subscribe(_topic);
        _thread = new Thread(Poll) { IsBackground = true, Name = "kafkaperf-confluent-poll" };
        _thread.Start();
    }

    public void StopPolling()
    {
        _stop = true;
        _thread?.Join();
    }

    public void Dispose()
    {
        StopPolling();
        // After a stall or a cancellation the broker may be gone: closing would wait for it. Disposing alone releases the
        // handle without leaving the group (the group is the run's own and goes with its topic).
        if (!_cancellation.IsCancellationRequested)
        {
            try
            {
                // Leaves the group at once, so the broker does not wait for a session timeout.
                _consumer.Close();
            }
            catch (KafkaException)
            {
                // The broker may be gone already; the handle is released below either way.
            }
        }
        _consumer.Dispose();
    }

    private void Poll()
    {
        var sink = _forwarder.Sink!;
        while (!_stop)
        {
            try
            {
                _consumer.Consume(PollTimeout);
            }
            catch (ConsumeException ex)
            {
                sink.OnError(ex.InnerException is { } inner ? $"{ex.Error.Reason}: {inner.Message}" : ex.Error.Reason);
                return;
            }
            catch (KafkaException ex) when (ex.Error.IsFatal)
            {
                sink.OnError(ex.Error.Reason);
                return;
            }
        }
    }

    /// <summary>Deserializes the key (big-endian, as Kafka's <c>LongSerializer</c>), then hands key and value to the
    /// sink; Confluent.Kafka calls the key deserializer first, both on the poll thread.</summary>
    private sealed class RecordForwarder : IDeserializer<long>, IDeserializer<Null>
    {
        private long _key;

        public IRecordSink? Sink { get; set; }

        long IDeserializer<long>.Deserialize(ReadOnlySpan<byte> data, bool isNull, SerializationContext context)
        {
            if (isNull || data.Length != sizeof(long))
                throw new InvalidDataException($"A record key of {(isNull ? "null" : data.Length + " bytes")} is not an 8-byte long.");
            _key = BinaryPrimitives.ReadInt64BigEndian(data);
            return _key;
        }

        Null IDeserializer<Null>.Deserialize(ReadOnlySpan<byte> data, bool isNull, SerializationContext context)
        {
            Sink!.OnRecord(_key, data);
            return null!;
        }
    }
}
