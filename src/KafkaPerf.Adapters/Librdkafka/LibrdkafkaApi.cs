using System.Runtime.InteropServices;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>
/// The functions of librdkafka's C API that the <c>librdkafka</c> client calls, as function pointers into the one native
/// file Confluent.Kafka loaded (<c>ConfluentNativeLibrary</c>): no <c>DllImport</c> of a library name, so the client can
/// never bind another librdkafka than <c>confluent</c>'s. Only fixed-argument functions: <c>rd_kafka_producev</c> is
/// variadic, and a variadic call through a function pointer is not portable.
/// </summary>
internal sealed unsafe class LibrdkafkaApi
{
    public const int Producer = 0;
    public const int Consumer = 1;
    public const int PartitionUnassigned = -1;
    public const int MessageCopy = 0x2;
    public const int ErrorQueueFull = -184;
    public const int ErrorTimedOut = -185;
    public const int ErrorPartitionEof = -191;
    public const int ErrorAssignPartitions = -175;
    public const int ErrorFatal = -150;
    public const int PurgeQueued = 0x1;
    public const int PurgeInFlight = 0x2;
    public const int PurgeNonBlocking = 0x4;
    public const int DestroyNoConsumerClose = 0x8;

    public LibrdkafkaApi(IntPtr library)
    {
        New = (delegate* unmanaged[Cdecl]<int, IntPtr, byte*, nuint, IntPtr>)Export(library, "rd_kafka_new");
        Destroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_destroy");
        DestroyFlags = (delegate* unmanaged[Cdecl]<IntPtr, int, void>)Export(library, "rd_kafka_destroy_flags");
        ConfDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_conf_destroy");
        SetOpaque = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, void>)Export(library, "rd_kafka_conf_set_opaque");
        SetDeliveryCallback = (delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, Message*, IntPtr, void>, void>)Export(library, "rd_kafka_conf_set_dr_msg_cb");
        SetLogCallback = (delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, byte*, byte*, void>, void>)Export(library, "rd_kafka_conf_set_log_cb");
        SetErrorCallback = (delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, byte*, IntPtr, void>, void>)Export(library, "rd_kafka_conf_set_error_cb");
        SetRebalanceCallback = (delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr, IntPtr, void>, void>)Export(library, "rd_kafka_conf_set_rebalance_cb");
        TopicNew = (delegate* unmanaged[Cdecl]<IntPtr, byte*, IntPtr, IntPtr>)Export(library, "rd_kafka_topic_new");
        TopicDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_topic_destroy");
        Produce = (delegate* unmanaged[Cdecl]<IntPtr, int, int, byte*, nuint, void*, nuint, IntPtr, int>)Export(library, "rd_kafka_produce");
        LastError = (delegate* unmanaged[Cdecl]<int>)Export(library, "rd_kafka_last_error");
        Poll = (delegate* unmanaged[Cdecl]<IntPtr, int, int>)Export(library, "rd_kafka_poll");
        Flush = (delegate* unmanaged[Cdecl]<IntPtr, int, int>)Export(library, "rd_kafka_flush");
        Purge = (delegate* unmanaged[Cdecl]<IntPtr, int, int>)Export(library, "rd_kafka_purge");
        Metadata = (delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr, MetadataHeader**, int, int>)Export(library, "rd_kafka_metadata");
        MetadataDestroy = (delegate* unmanaged[Cdecl]<MetadataHeader*, void>)Export(library, "rd_kafka_metadata_destroy");
        QueryWatermarkOffsets = (delegate* unmanaged[Cdecl]<IntPtr, byte*, int, long*, long*, int, int>)Export(library, "rd_kafka_query_watermark_offsets");
        Err2Str = (delegate* unmanaged[Cdecl]<int, IntPtr>)Export(library, "rd_kafka_err2str");
        PollSetConsumer = (delegate* unmanaged[Cdecl]<IntPtr, int>)Export(library, "rd_kafka_poll_set_consumer");
        Subscribe = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int>)Export(library, "rd_kafka_subscribe");
        ConsumerPoll = (delegate* unmanaged[Cdecl]<IntPtr, int, Message*>)Export(library, "rd_kafka_consumer_poll");
        ConsumerClose = (delegate* unmanaged[Cdecl]<IntPtr, int>)Export(library, "rd_kafka_consumer_close");
        ConsumerCloseQueue = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, IntPtr>)Export(library, "rd_kafka_consumer_close_queue");
        ConsumerClosed = (delegate* unmanaged[Cdecl]<IntPtr, int>)Export(library, "rd_kafka_consumer_closed");
        MessageDestroy = (delegate* unmanaged[Cdecl]<Message*, void>)Export(library, "rd_kafka_message_destroy");
        Assign = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int>)Export(library, "rd_kafka_assign");
        IncrementalAssign = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, IntPtr>)Export(library, "rd_kafka_incremental_assign");
        IncrementalUnassign = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr, IntPtr>)Export(library, "rd_kafka_incremental_unassign");
        RebalanceProtocol = (delegate* unmanaged[Cdecl]<IntPtr, byte*>)Export(library, "rd_kafka_rebalance_protocol");
        ErrorDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_error_destroy");
        ListNew = (delegate* unmanaged[Cdecl]<int, IntPtr>)Export(library, "rd_kafka_topic_partition_list_new");
        ListAdd = (delegate* unmanaged[Cdecl]<IntPtr, byte*, int, IntPtr>)Export(library, "rd_kafka_topic_partition_list_add");
        ListDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_topic_partition_list_destroy");
        QueueGetMain = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)Export(library, "rd_kafka_queue_get_main");
        QueueGetConsumer = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)Export(library, "rd_kafka_queue_get_consumer");
        QueueYield = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_queue_yield");
        QueueDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)Export(library, "rd_kafka_queue_destroy");
    }

    public readonly delegate* unmanaged[Cdecl]<int, IntPtr, byte*, nuint, IntPtr> New;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> Destroy;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, void> DestroyFlags;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> ConfDestroy;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, void> SetOpaque;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, Message*, IntPtr, void>, void> SetDeliveryCallback;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, byte*, byte*, void>, void> SetLogCallback;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, byte*, IntPtr, void>, void> SetErrorCallback;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr, IntPtr, void>, void> SetRebalanceCallback;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*, IntPtr, IntPtr> TopicNew;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> TopicDestroy;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, int, byte*, nuint, void*, nuint, IntPtr, int> Produce;
    public readonly delegate* unmanaged[Cdecl]<int> LastError;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, int> Poll;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, int> Flush;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, int> Purge;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, IntPtr, MetadataHeader**, int, int> Metadata;
    public readonly delegate* unmanaged[Cdecl]<MetadataHeader*, void> MetadataDestroy;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*, int, long*, long*, int, int> QueryWatermarkOffsets;
    public readonly delegate* unmanaged[Cdecl]<int, IntPtr> Err2Str;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int> PollSetConsumer;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int> Subscribe;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int, Message*> ConsumerPoll;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int> ConsumerClose;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, IntPtr> ConsumerCloseQueue;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, int> ConsumerClosed;
    public readonly delegate* unmanaged[Cdecl]<Message*, void> MessageDestroy;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, int> Assign;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, IntPtr> IncrementalAssign;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr, IntPtr> IncrementalUnassign;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*> RebalanceProtocol;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> ErrorDestroy;
    public readonly delegate* unmanaged[Cdecl]<int, IntPtr> ListNew;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*, int, IntPtr> ListAdd;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> ListDestroy;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> QueueGetMain;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> QueueGetConsumer;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> QueueYield;
    public readonly delegate* unmanaged[Cdecl]<IntPtr, void> QueueDestroy;

    /// <summary>librdkafka's text for an error code.</summary>
    public string ErrorText(int code) => Marshal.PtrToStringUTF8(Err2Str(code)) ?? $"error {code}";

    /// <summary>Wakes whoever waits on a queue of the handle (<c>rd_kafka_queue_yield</c>): a poll then returns at once.</summary>
    /// <param name="queue">The queue, from <see cref="QueueGetMain"/> or <see cref="QueueGetConsumer"/>; released here.</param>
    public void YieldAndRelease(IntPtr queue)
    {
        if (queue == IntPtr.Zero) return;
        QueueYield(queue);
        QueueDestroy(queue);
    }

    /// <summary>Whether the library exports every function this client calls.</summary>
    /// <param name="library">The loaded library.</param>
    /// <returns>The first missing function's name; <see langword="null"/> when none is missing.</returns>
    public static string? Missing(IntPtr library) =>
        library == IntPtr.Zero ? "rd_kafka_new"
            : Names.FirstOrDefault(name => !NativeLibrary.TryGetExport(library, name, out _));

    private static readonly string[] Names =
    [
        "rd_kafka_new", "rd_kafka_produce", "rd_kafka_conf_set_dr_msg_cb", "rd_kafka_consumer_poll", "rd_kafka_subscribe",
        "rd_kafka_incremental_assign", "rd_kafka_rebalance_protocol", "rd_kafka_consumer_close_queue", "rd_kafka_consumer_closed", "rd_kafka_query_watermark_offsets", "rd_kafka_purge",
    ];

    private static IntPtr Export(IntPtr library, string name) => NativeLibrary.GetExport(library, name);

    /// <summary><c>rd_kafka_message_t</c>, as librdkafka lays it out.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Message
    {
        public int Err;
        public IntPtr Topic;
        public int Partition;
        public byte* Payload;
        public nuint Length;
        public byte* Key;
        public nuint KeyLength;
        public long Offset;

        /// <summary>The producer's per-message opaque (<c>msg_opaque</c>): here the record's id.</summary>
        public IntPtr Private;
    }

    /// <summary><c>struct rd_kafka_metadata</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MetadataHeader
    {
        public int BrokerCount;
        public IntPtr Brokers;
        public int TopicCount;
        public MetadataTopic* Topics;
        public int OriginBrokerId;
        public IntPtr OriginBrokerName;
    }

    /// <summary><c>rd_kafka_metadata_topic_t</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MetadataTopic
    {
        public byte* Name;
        public int PartitionCount;
        public MetadataPartition* Partitions;
        public int Err;
    }

    /// <summary><c>rd_kafka_metadata_partition_t</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MetadataPartition
    {
        public int Id;
        public int Err;
        public int Leader;
        public int ReplicaCount;
        public IntPtr Replicas;
        public int IsrCount;
        public IntPtr Isrs;
    }
}
