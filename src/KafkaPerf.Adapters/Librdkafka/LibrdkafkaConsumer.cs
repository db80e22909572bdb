using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>
/// The <c>librdkafka</c> client's consumer: <c>rd_kafka_subscribe</c>, then <c>rd_kafka_consumer_poll</c> on a thread of
/// its own, each record's key (big-endian, as Kafka's <c>LongSerializer</c>) and value handed to the sink as a span over
/// librdkafka's own buffer, then its partition and offset, as <c>confluent</c>'s consumer does. Partitions are taken in a
/// rebalance callback (a static <see cref="UnmanagedCallersOnlyAttribute"/> function), which signals
/// <see cref="IRecordSink.OnAssigned"/> once they are assigned, before any record of them.
/// </summary>
internal sealed unsafe class LibrdkafkaConsumer : IBenchConsumer
{
    private const int PollTimeoutMs = 100;
    private static readonly TimeSpan CancelledCloseBound = TimeSpan.FromSeconds(2);

    private readonly LibrdkafkaApi _api;
    private readonly IntPtr _handle;
    private readonly string _topic;
    private readonly CancellationToken _cancellation;
    private readonly TimeSpan _stallTimeout;
    private readonly GCHandle _callbacks;
    private readonly Callbacks _state;
    private Thread? _thread;
    private volatile bool _stop;
    private bool _disposed;

    public LibrdkafkaConsumer(ConsumerSpec spec, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, LibrdkafkaApi api)
    {
        _api = api;
        _topic = spec.Topic;
        _cancellation = spec.Cancellation;
        _stallTimeout = spec.StallTimeout;
        var settings = LibrdkafkaSettings.Consumer(bootstrap, spec.GroupId, spec.Settings, security);
        var conf = LibrdkafkaConfigDump.NewConf(binding, settings);
        _state = new Callbacks(api);
        _callbacks = GCHandle.Alloc(_state);
        api.SetOpaque(conf, GCHandle.ToIntPtr(_callbacks));
        api.SetRebalanceCallback(conf, &OnRebalance);
        api.SetErrorCallback(conf, &OnError);
        api.SetLogCallback(conf, &DropLog);
        var error = stackalloc byte[512];
        _handle = api.New(LibrdkafkaApi.Consumer, conf, error, 512);
        if (_handle == IntPtr.Zero)
        {
            api.ConfDestroy(conf);
            _callbacks.Free();
            throw new KafkaException(new Error(ErrorCode.Local_Fail, $"librdkafka could not create a consumer: {Marshal.PtrToStringUTF8((IntPtr)error)}"));
        }
        try
        {
            // Rebalances and errors are then served by rd_kafka_consumer_poll, on the poll thread.
            if (api.PollSetConsumer(_handle) is var code and not 0) throw new KafkaException(new Error((ErrorCode)code, api.ErrorText(code)));
            EffectiveConfig = LibrdkafkaConfigDump.Effective(binding, settings, _handle);
        }
        catch
        {
            api.DestroyFlags(_handle, LibrdkafkaApi.DestroyNoConsumerClose);
            _callbacks.Free();
            throw;
        }
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    /// <summary>No prefetch thread of the adapter's own; librdkafka always fetches ahead in the background.</summary>
    public bool PrefetchEnabled => false;

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer is already polling.");
        _state.Sink = sink;
        var list = _api.ListNew(1);
        var topic = Marshal.StringToCoTaskMemUTF8(_topic);
        try
        {
            _api.ListAdd(list, (byte*)topic, -1);
            if (_api.Subscribe(_handle, list) is var code and not 0) throw new KafkaException(new Error((ErrorCode)code, _api.ErrorText(code)));
        }
        finally
        {
            Marshal.FreeCoTaskMem(topic);
            _api.ListDestroy(list);
        }
        _thread = new Thread(() => Poll(sink)) { IsBackground = true, Name = "kafkaperf-librdkafka-consume" };
        _thread.Start();
    }

    public void StopPolling()
    {
        _stop = true;
        if (_thread is null) return;
        // The poll thread may wait in rd_kafka_consumer_poll for up to its timeout: woken, it sees the stop at once.
        _api.YieldAndRelease(_api.QueueGetConsumer(_handle));
        _thread.Join();
    }

    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        StopPolling();
        // Leaves the group, so that the broker does not wait a session timeout for this member (a later consumer of a group
        // of the same name waited out the 45 s of one left behind). The close is asynchronous and bounded: a load run
        // cancels the token at its normal end too, so a cancelled token cannot tell a broker that is gone, and the close is
        // given a short while then; otherwise the stall timeout. What is not closed by then goes without leaving the group.
        var bound = _cancellation.IsCancellationRequested ? CancelledCloseBound : _stallTimeout;
        bool closed = Close(bound);
        if (closed) _api.Destroy(_handle);
        else _api.DestroyFlags(_handle, LibrdkafkaApi.DestroyNoConsumerClose);
        _callbacks.Free();
    }

    /// <summary>Closes the consumer through its own queue (<c>rd_kafka_consumer_close_queue</c>), serving it with
    /// <c>rd_kafka_consumer_poll</c> (which calls the rebalance callback that gives the partitions back) until librdkafka
    /// says it is closed or <paramref name="bound"/> has passed.</summary>
    /// <returns>Whether it closed in time.</returns>
    private bool Close(TimeSpan bound)
    {
        var queue = _api.QueueGetConsumer(_handle);
        if (queue == IntPtr.Zero) return false;
        try
        {
            var error = _api.ConsumerCloseQueue(_handle, queue);
            if (error != IntPtr.Zero)
            {
                _api.ErrorDestroy(error);
                return false;
            }
            long deadline = System.Diagnostics.Stopwatch.GetTimestamp() + (long)(bound.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);
            while (_api.ConsumerClosed(_handle) == 0)
            {
                if (System.Diagnostics.Stopwatch.GetTimestamp() >= deadline) return false;
                var message = _api.ConsumerPoll(_handle, 10);
                if (message != null) _api.MessageDestroy(message);
            }
            return true;
        }
        finally
        {
            _api.QueueDestroy(queue);
        }
    }

    private void Poll(IRecordSink sink)
    {
        try
        {
            while (!_stop)
            {
                var message = _api.ConsumerPoll(_handle, PollTimeoutMs);
                if (message == null) continue;
                try
                {
                    if (message->Err != 0)
                    {
                        if (message->Err == LibrdkafkaApi.ErrorPartitionEof) continue;
                        // As confluent's consumer, whose Consume throws on a message that carries an error.
                        sink.OnError(_api.ErrorText(message->Err));
                        return;
                    }
                    // A key that is not an id (keys other than unique) is no error: the id is then read from the value.
                    long id = message->KeyLength == sizeof(long) ? BinaryPrimitives.ReadInt64BigEndian(new ReadOnlySpan<byte>(message->Key, sizeof(long))) : -1;
                    sink.OnRecord(id, new ReadOnlySpan<byte>(message->Payload, checked((int)message->Length)));
                    sink.OnRecordPosition(message->Partition, message->Offset);
                }
                finally
                {
                    _api.MessageDestroy(message);
                }
            }
        }
        catch (Exception ex)
        {
            // Nothing may escape this thread: an unhandled exception would end the process.
            try
            {
                sink.OnError($"{ex.GetType().Name}: {ex.Message}");
            }
            catch (Exception)
            {
                // The sink failed too; the scenario ends on its stall timeout.
            }
        }
    }

    /// <summary>librdkafka's rebalance callback, served by <c>rd_kafka_consumer_poll</c> (or by closing): takes or gives
    /// back the partitions, eagerly or incrementally as the group's protocol says, and signals an assignment.</summary>
    [UnmanagedCallersOnly(CallConvs = [typeof(System.Runtime.CompilerServices.CallConvCdecl)])]
    private static void OnRebalance(IntPtr handle, int code, IntPtr partitions, IntPtr opaque)
    {
        try
        {
            var state = (Callbacks)GCHandle.FromIntPtr(opaque).Target!;
            var api = state.Api;
            var protocol = api.RebalanceProtocol(handle);
            bool cooperative = protocol != null && protocol[0] == (byte)'C';
            bool assign = code == LibrdkafkaApi.ErrorAssignPartitions;
            if (cooperative)
            {
                var error = assign ? api.IncrementalAssign(handle, partitions) : api.IncrementalUnassign(handle, partitions);
                if (error != IntPtr.Zero) api.ErrorDestroy(error);
            }
            else
            {
                api.Assign(handle, assign ? partitions : IntPtr.Zero);
            }
            if (assign) state.Sink?.OnAssigned();
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Nothing may unwind into librdkafka; a consume without its assignment ends on the stall timeout.
        }
    }

    /// <summary>librdkafka's error callback: a fatal error ends the consume, as confluent's error handler does; the
    /// others librdkafka recovers from by itself.</summary>
    [UnmanagedCallersOnly(CallConvs = [typeof(System.Runtime.CompilerServices.CallConvCdecl)])]
    private static void OnError(IntPtr handle, int code, byte* reason, IntPtr opaque)
    {
        try
        {
            if (code != LibrdkafkaApi.ErrorFatal) return;
            var state = (Callbacks)GCHandle.FromIntPtr(opaque).Target!;
            state.Sink?.OnError(Marshal.PtrToStringUTF8((IntPtr)reason) ?? state.Api.ErrorText(code));
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Nothing may unwind into librdkafka.
        }
    }

    /// <summary>Drops librdkafka's log lines, as the confluent clients' log handlers do.</summary>
    [UnmanagedCallersOnly(CallConvs = [typeof(System.Runtime.CompilerServices.CallConvCdecl)])]
    internal static void DropLog(IntPtr handle, int level, byte* facility, byte* line)
    {
    }

    /// <summary>What the callbacks need, reached through the handle's opaque: one per consumer.</summary>
    private sealed class Callbacks(LibrdkafkaApi api)
    {
        public LibrdkafkaApi Api { get; } = api;

        public volatile IRecordSink? Sink;
    }
}
