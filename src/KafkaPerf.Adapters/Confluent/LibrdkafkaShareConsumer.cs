using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent</c>'s member of a share group (KIP-932): librdkafka's share consumer (a preview C API since 2.15), called
/// directly in the librdkafka Confluent.Kafka loaded, since Confluent.Kafka 2.16 wraps none of it. A thread of its own
/// polls batches (<c>rd_kafka_share_poll</c>) and hands each record to the sink as a span over librdkafka's memory; with
/// explicit acknowledgement each record is accepted after the sink has it, one call per record.
/// </summary>
/// <remarks>The group reads from the topic's start: its <c>share.auto.offset.reset</c> (a group setting, <c>latest</c> by
/// default) is set to <c>earliest</c> through the admin client before the member joins. A share consumer is told of no
/// assignment: its first records signal it.</remarks>
internal sealed unsafe class LibrdkafkaShareConsumer : IBenchConsumer
{
    private const int PollTimeoutMs = 100;
    private const int AcceptType = 1;
    private const int DestroyNoConsumerClose = 0x8;

    private readonly Api _api;
    private readonly IntPtr _handle;
    private readonly string _topic;
    private readonly bool _explicit;
    private readonly CancellationToken _cancellation;
    private Thread? _thread;
    private volatile bool _stop;
    private bool _disposed;

    public LibrdkafkaShareConsumer(ConsumerSpec spec, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, IAdminClient admin)
    {
        _api = new Api(binding.Handle);
        _topic = spec.Topic;
        _explicit = spec.Settings.Group == ConsumerGroupKind.ShareExplicit;
        _cancellation = spec.Cancellation;
        var settings = ConfluentSettings.ShareConsumer(bootstrap, spec.GroupId, spec.Settings, security);
        EffectiveConfig = LibrdkafkaConfigDump.Effective(binding, settings);
        ReadFromTheStart(admin, spec);

        var conf = LibrdkafkaConfigDump.NewConf(binding, settings);
        // Silent, as the Confluent.Kafka clients are here (their log handler drops every line): librdkafka would otherwise
        // print to standard error, e.g. that its share consumer is a preview (docs/workloads.md says so).
        _api.SetLogCallback(conf, &DropLog);
        var error = stackalloc byte[512];
        _handle = _api.ConsumerNew(conf, error, 512);
        if (_handle == IntPtr.Zero)
        {
            LibrdkafkaConfigDump.DestroyConf(binding, conf);
            throw new KafkaException(new Error(ErrorCode.Local_Fail, $"librdkafka could not create a share consumer: {Marshal.PtrToStringUTF8((IntPtr)error)}"));
        }
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public bool PrefetchEnabled => false;

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer is already polling.");
        var list = _api.ListNew(1);
        var topic = Marshal.StringToCoTaskMemUTF8(_topic);
        try
        {
            _api.ListAdd(list, (byte*)topic, -1);
            int code = _api.Subscribe(_handle, list);
            if (code != 0) throw new KafkaException((ErrorCode)code);
        }
        finally
        {
            Marshal.FreeCoTaskMem(topic);
            _api.ListDestroy(list);
        }
        _thread = new Thread(() => Poll(sink)) { IsBackground = true, Name = "kafkaperf-confluent-share-poll" };
        _thread.Start();
    }

    public void StopPolling()
    {
        _stop = true;
        _thread?.Join();
    }

    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        StopPolling();
        // Closing leaves the group and sends what is still unacknowledged; it has no timeout of its own (socket.timeout.ms),
        // so after a stall or a cancellation the handle goes without it, waiting for no broker.
        if (!_cancellation.IsCancellationRequested) DestroyError(_api.Close(_handle));
        DestroyError(_cancellation.IsCancellationRequested ? _api.DestroyFlags(_handle, DestroyNoConsumerClose) : _api.Destroy(_handle));
    }

    /// <summary>Sets the run's share group to start at the log's start, before any member joins it.</summary>
    private static void ReadFromTheStart(IAdminClient admin, ConsumerSpec spec)
    {
        var resource = new ConfigResource { Type = ResourceType.Group, Name = spec.GroupId };
        var entry = new ConfigEntry { Name = "share.auto.offset.reset", Value = "earliest", IncrementalOperation = AlterConfigOpType.Set };
        admin.IncrementalAlterConfigsAsync(
                new Dictionary<ConfigResource, List<ConfigEntry>> { [resource] = [entry] },
                new IncrementalAlterConfigsOptions { RequestTimeout = spec.StallTimeout })
            .WaitAsync(spec.StallTimeout, spec.Cancellation).GetAwaiter().GetResult();
    }

    private void Poll(IRecordSink sink)
    {
        bool signalled = false;
        Span<byte> key = stackalloc byte[sizeof(long)];
        try
        {
            while (!_stop)
            {
                IntPtr batch = IntPtr.Zero;
                var error = _api.Poll(_handle, PollTimeoutMs, &batch);
                if (error != IntPtr.Zero)
                {
                    bool fatal = _api.ErrorIsFatal(error) != 0;
                    string reason = ErrorText(error);
                    _api.ErrorDestroy(error);
                    if (fatal)
                    {
                        sink.OnError(reason);
                        return;
                    }
                    continue;
                }
                if (batch == IntPtr.Zero) continue;
                try
                {
                    nuint count = _api.MessagesCount(batch);
                    if (count > 0 && !signalled)
                    {
                        signalled = true;
                        sink.OnAssigned();
                    }
                    for (nuint i = 0; i < count; i++)
                    {
                        var message = (Message*)_api.MessagesGet(batch, i);
                        // A record librdkafka could not read (corrupt, not decompressible) comes with an error and is
                        // already acknowledged by librdkafka as rejected or released: it is not a record of the run.
                        if (message->Err != 0) continue;
                        long id = -1;
                        if (message->KeyLength == sizeof(long))
                        {
                            new ReadOnlySpan<byte>((void*)message->Key, sizeof(long)).CopyTo(key);
                            id = BinaryPrimitives.ReadInt64BigEndian(key);
                        }
                        sink.OnRecord(id, new ReadOnlySpan<byte>((void*)message->Payload, checked((int)message->Length)));
                        sink.OnRecordPosition(message->Partition, message->Offset);
                        if (_explicit && _api.AcknowledgeType(_handle, (IntPtr)message, AcceptType) is var code and not 0)
                        {
                            sink.OnError($"accepting a record failed: {Marshal.PtrToStringUTF8(_api.Err2Str(code))}");
                            return;
                        }
                    }
                }
                finally
                {
                    _api.MessagesDestroy(batch);
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

    [UnmanagedCallersOnly(CallConvs = [typeof(System.Runtime.CompilerServices.CallConvCdecl)])]
    private static void DropLog(IntPtr handle, int level, byte* facility, byte* line)
    {
    }

    private string ErrorText(IntPtr error) => Marshal.PtrToStringUTF8(_api.ErrorString(error)) ?? $"error {_api.ErrorCode(error)}";

    private void DestroyError(IntPtr error)
    {
        if (error != IntPtr.Zero) _api.ErrorDestroy(error);
    }

    /// <summary><c>rd_kafka_message_t</c>, as librdkafka lays it out.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct Message
    {
        public int Err;
        public IntPtr Topic;
        public int Partition;
        public IntPtr Payload;
        public nuint Length;
        public IntPtr Key;
        public nuint KeyLength;
        public long Offset;
        public IntPtr Private;
    }

    /// <summary>The share consumer's functions, from the loaded library.</summary>
    private readonly struct Api(IntPtr library)
    {
        public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*, nuint, IntPtr> ConsumerNew = (delegate* unmanaged[Cdecl]<IntPtr, byte*, nuint, IntPtr>)Export(library, "rd_kafka_share_consumer_new");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int> Subscribe = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int>)Export(library, "rd_kafka_share_subscribe");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr*, IntPtr> Poll = (delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr*, IntPtr>)Export(library, "rd_kafka_share_poll");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int, int> AcknowledgeType = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int, int>)Export(library, "rd_kafka_share_acknowledge_type");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> Close = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)Export(library, "rd_kafka_share_consumer_close");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> Destroy = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)Export(library, "rd_kafka_share_destroy");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr> DestroyFlags = (delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr>)Export(library, "rd_kafka_share_destroy_flags");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, nuint> MessagesCount = (delegate* unmanaged[Cdecl]<IntPtr, nuint>)Export(library, "rd_kafka_messages_count");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, nuint, IntPtr> MessagesGet = (delegate* unmanaged[Cdecl]<IntPtr, nuint, IntPtr>)Export(library, "rd_kafka_messages_get");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, void> MessagesDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_messages_destroy");
        public readonly delegate* unmanaged[Cdecl]<int, IntPtr> ListNew = (delegate* unmanaged[Cdecl]<int, IntPtr>)Export(library, "rd_kafka_topic_partition_list_new");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*, int, IntPtr> ListAdd = (delegate* unmanaged[Cdecl]<IntPtr, byte*, int, IntPtr>)Export(library, "rd_kafka_topic_partition_list_add");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, void> ListDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_topic_partition_list_destroy");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, int> ErrorCode = (delegate* unmanaged[Cdecl]<IntPtr, int>)Export(library, "rd_kafka_error_code");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> ErrorString = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)Export(library, "rd_kafka_error_string");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, int> ErrorIsFatal = (delegate* unmanaged[Cdecl]<IntPtr, int>)Export(library, "rd_kafka_error_is_fatal");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, void> ErrorDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_error_destroy");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, byte*, byte*, void>, void> SetLogCallback = (delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, byte*, byte*, void>, void>)Export(library, "rd_kafka_conf_set_log_cb");
        public readonly delegate* unmanaged[Cdecl]<int, IntPtr> Err2Str = (delegate* unmanaged[Cdecl]<int, IntPtr>)Export(library, "rd_kafka_err2str");
    }

    /// <summary>Whether the loaded librdkafka has a share consumer (2.15 and later).</summary>
    /// <param name="binding">The loaded library.</param>
    /// <returns><see langword="true"/> when it exports one.</returns>
    public static bool IsAvailable(LibrdkafkaBinding binding) =>
        binding.Handle != IntPtr.Zero && NativeLibrary.TryGetExport(binding.Handle, "rd_kafka_share_consumer_new", out _);

    private static IntPtr Export(IntPtr library, string name) => NativeLibrary.GetExport(library, name);
}
