using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>
/// The <c>librdkafka</c> client's producer: <c>rd_kafka_produce</c> called directly, with the record's id as the message's
/// opaque (a pointer-sized integer, no handle per record) and a delivery-report callback that is a static
/// <see cref="UnmanagedCallersOnlyAttribute"/> function, so nothing is allocated per record on either side. A thread of its own
/// polls the reports (<c>rd_kafka_poll</c>), as Confluent.Kafka's producer does; <see cref="Flush"/> flushes in 1 ms steps.
/// </summary>
/// <remarks>Before the constructor returns, the producer's own handle has the topic's metadata with a leader for every
/// partition, and has asked each leader for its offsets, so the first timed send waits neither for metadata nor for a
/// connection (the same preparation as <c>confluent</c>'s). <see cref="Send"/> runs on one thread; reports arrive on the
/// poll thread, or on the sending thread while it waits for room in librdkafka's queue or flushes.</remarks>
internal sealed unsafe class LibrdkafkaProducer : IBenchProducer
{
    private const int PollTimeoutMs = 100;
    private const int QueueFullWaitMs = 5;
    private static readonly TimeSpan MetadataPoll = TimeSpan.FromMilliseconds(20);

    private readonly LibrdkafkaApi _api;
    private readonly IntPtr _handle;
    private readonly IntPtr _topic;
    private readonly GCHandle _callbacks;
    private readonly CancellationToken _cancellation;
    private readonly Thread _poller;
    private volatile bool _stop;
    private bool _disposed;

    public LibrdkafkaProducer(ProducerSpec spec, IDeliverySink sink, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding,
        LibrdkafkaApi api, TimeSpan metadataTimeout)
    {
        _api = api;
        _cancellation = spec.Cancellation;
        var settings = LibrdkafkaSettings.Producer(bootstrap, spec.Settings, security);
        var conf = LibrdkafkaConfigDump.NewConf(binding, settings);
        _callbacks = GCHandle.Alloc(new Callbacks(sink, api));
        api.SetOpaque(conf, GCHandle.ToIntPtr(_callbacks));
        api.SetDeliveryCallback(conf, &OnDelivery);
        // Silent, as the confluent clients are (their log handler drops every line).
        api.SetLogCallback(conf, &LibrdkafkaConsumer.DropLog);
        var error = stackalloc byte[512];
        _handle = api.New(LibrdkafkaApi.Producer, conf, error, 512);
        if (_handle == IntPtr.Zero)
        {
            api.ConfDestroy(conf);
            _callbacks.Free();
            throw new KafkaException(new Error(ErrorCode.Local_Fail, $"librdkafka could not create a producer: {Marshal.PtrToStringUTF8((IntPtr)error)}"));
        }
        try
        {
            var name = Encoding.UTF8.GetBytes(spec.Topic + "\0");
            fixed (byte* topic = name) _topic = api.TopicNew(_handle, topic, IntPtr.Zero);
            if (_topic == IntPtr.Zero) throw new KafkaException(new Error(ErrorCode.Local_Fail, $"librdkafka could not open topic '{spec.Topic}': {api.ErrorText(api.LastError())}"));
            EffectiveConfig = LibrdkafkaConfigDump.Effective(binding, settings, _handle);
            Prepare(spec.Topic, name, metadataTimeout < spec.StallTimeout ? metadataTimeout : spec.StallTimeout);
        }
        catch
        {
            if (_topic != IntPtr.Zero) api.TopicDestroy(_topic);
            api.Destroy(_handle);
            _callbacks.Free();
            throw;
        }
        _poller = new Thread(Poll) { IsBackground = true, Name = "kafkaperf-librdkafka-poll" };
        _poller.Start();
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        // Kafka's LongSerializer layout; librdkafka copies key and value (RD_KAFKA_MSG_F_COPY) before it returns.
        long bigEndian = BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(key) : key;
        fixed (byte* payload = value.Span)
        {
            while (_api.Produce(_topic, LibrdkafkaApi.PartitionUnassigned, LibrdkafkaApi.MessageCopy, payload, (nuint)value.Length,
                       &bigEndian, sizeof(long), new IntPtr(key)) != 0)
            {
                int code = _api.LastError();
                if (code != LibrdkafkaApi.ErrorQueueFull) throw new KafkaException(new Error((ErrorCode)code, _api.ErrorText(code)));
                // librdkafka's queue is full: serve delivery reports to drain some, then send again - unless the run was
                // cancelled or stalled (a broker that is gone drains nothing until message.timeout.ms, 5 min).
                _cancellation.ThrowIfCancellationRequested();
                _api.Poll(_handle, QueueFullWaitMs);
            }
        }
    }

    public void Flush(CancellationToken cancellationToken)
    {
        // 1 ms steps, as confluent's: the timed section ends within 1 ms of the last acknowledgement even when the poll
        // thread, not the flush, served it.
        while (_api.Flush(_handle, 1) != 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            _cancellation.ThrowIfCancellationRequested();
        }
    }

    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        _stop = true;
        _api.YieldAndRelease(_api.QueueGetMain(_handle));
        _poller.Join();
        // After a stall or a cancellation nothing waits for records still queued or in flight.
        if (_cancellation.IsCancellationRequested)
            _api.Purge(_handle, LibrdkafkaApi.PurgeQueued | LibrdkafkaApi.PurgeInFlight | LibrdkafkaApi.PurgeNonBlocking);
        _api.TopicDestroy(_topic);
        _api.Destroy(_handle);
        _callbacks.Free();
    }

    private void Poll()
    {
        while (!_stop) _api.Poll(_handle, PollTimeoutMs);
    }

    /// <summary>Waits until the producer's own handle sees the topic with a leader for every partition, then asks every
    /// leader for the partition's offsets, which opens the connection the first send would otherwise open.</summary>
    private void Prepare(string topic, byte[] name, TimeSpan timeout)
    {
        long deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        int[] partitions;
        string last = "no answer";
        while (!TryPartitions(RemainingMs(deadline), out partitions, ref last))
        {
            if (Stopwatch.GetTimestamp() >= deadline)
                throw new TimeoutException($"Topic '{topic}' was not ready in the producer's metadata within {timeout.TotalSeconds:0.#} s ({last}).");
            _cancellation.ThrowIfCancellationRequested();
            Thread.Sleep(MetadataPoll);
        }
        fixed (byte* topicName = name)
        {
            foreach (var partition in partitions)
            {
                long low, high;
                int code;
                // Just after creation a partition's leader may not serve yet (seen with 3 partitions): ask again.
                while ((code = _api.QueryWatermarkOffsets(_handle, topicName, partition, &low, &high, RemainingMs(deadline))) != 0)
                {
                    if (Stopwatch.GetTimestamp() >= deadline)
                        throw new TimeoutException($"The leader of '{topic}' partition {partition} did not answer within {timeout.TotalSeconds:0.#} s ({_api.ErrorText(code)}).");
                    _cancellation.ThrowIfCancellationRequested();
                    Thread.Sleep(MetadataPoll);
                }
            }
        }
    }

    private bool TryPartitions(int timeoutMs, out int[] partitions, ref string state)
    {
        partitions = [];
        LibrdkafkaApi.MetadataHeader* metadata = null;
        int code = _api.Metadata(_handle, 0, _topic, &metadata, timeoutMs);
        if (code != 0 || metadata == null)
        {
            state = _api.ErrorText(code);
            return false;
        }
        try
        {
            if (metadata->TopicCount < 1)
            {
                state = "not listed";
                return false;
            }
            var found = metadata->Topics[0];
            if (found.Err != 0 || found.PartitionCount == 0)
            {
                state = found.Err != 0 ? _api.ErrorText(found.Err) : "no partitions";
                return false;
            }
            var ids = new int[found.PartitionCount];
            for (int i = 0; i < ids.Length; i++)
            {
                var partition = found.Partitions[i];
                if (partition.Leader < 0 || partition.Err != 0)
                {
                    state = $"partition {partition.Id} has no leader";
                    return false;
                }
                ids[i] = partition.Id;
            }
            partitions = ids;
            return true;
        }
        finally
        {
            _api.MetadataDestroy(metadata);
        }
    }

    private static int RemainingMs(long deadline) =>
        (int)Math.Clamp((deadline - Stopwatch.GetTimestamp()) * 1000 / Stopwatch.Frequency, 100, int.MaxValue);

    /// <summary>librdkafka's delivery report: on the thread that polls (the poll thread, a flush, a send waiting for room).</summary>
    [UnmanagedCallersOnly(CallConvs = [typeof(System.Runtime.CompilerServices.CallConvCdecl)])]
    private static void OnDelivery(IntPtr handle, LibrdkafkaApi.Message* message, IntPtr opaque)
    {
        try
        {
            var callbacks = (Callbacks)GCHandle.FromIntPtr(opaque).Target!;
            long id = message->Private;
            if (message->Err != 0) callbacks.Sink.OnDeliveryFailed(id, callbacks.Api.ErrorText(message->Err));
            else callbacks.Sink.OnDelivered(id, message->Partition, message->Offset);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Nothing may unwind into librdkafka; a sink that fails leaves the record unacknowledged, which the scenario sees.
        }
    }

    /// <summary>What the delivery callback needs, reached through the handle's opaque: one per producer.</summary>
    private sealed class Callbacks(IDeliverySink sink, LibrdkafkaApi api)
    {
        public IDeliverySink Sink { get; } = sink;

        public LibrdkafkaApi Api { get; } = api;
    }
}
