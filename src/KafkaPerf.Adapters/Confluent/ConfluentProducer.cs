using System.Runtime.InteropServices;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent</c>'s producer: the delivery-handler <c>Produce</c> overload (no Task per record), one reused
/// message, key buffer and handler, and on <c>Local: Queue full</c> a poll and a retry instead of a failure.
/// </summary>
/// <remarks>Before the constructor returns, the producer's own handle has fetched the topic's metadata and connected to
/// its leaders, so the first timed send waits for neither. <see cref="Send"/> runs on one thread; delivery reports arrive on Confluent.Kafka's
/// poll thread.</remarks>
internal sealed class ConfluentProducer : IBenchProducer, IClientBreakdown
{
    // Short: Confluent.Kafka's own poll thread serves the reports, so a long wait could outlast the drained queue.
    private static readonly TimeSpan QueueFullWait = TimeSpan.FromMilliseconds(5);
    private static readonly TimeSpan FlushStep = TimeSpan.FromMilliseconds(1);

    private readonly IProducer<long, byte[]> _producer;
    private readonly TopicPartition _topicPartition;
    private readonly Message<long, byte[]> _message;
    private readonly Action<DeliveryReport<long, byte[]>> _onDelivery;
    private readonly CancellationToken _cancellation;
    private readonly TimeSpan _transactionTimeout;
    private ReadOnlyMemory<byte> _value;
    private readonly LibrdkafkaStatistics? _statistics;

    public ConfluentProducer(ProducerSpec spec, IDeliverySink sink, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, TimeSpan metadataTimeout)
    {
        var settings = ConfluentSettings.Producer(bootstrap, spec.Settings, security: security);
        _topicPartition = new TopicPartition(spec.Topic, Partition.Any);
        _cancellation = spec.Cancellation;
        _message = new Message<long, byte[]> { Headers = ConfluentWorkload.HeadersOf(spec.Settings) ?? [] };
        _onDelivery = report =>
        {
            if (report.Error.IsError) sink.OnDeliveryFailed(report.Message.Key, report.Error.Reason);
            else sink.OnDelivered(report.Message.Key, report.Partition.Value, report.Offset.Value);
        };
        if (spec.Statistics)
        {
            _statistics = new LibrdkafkaStatistics();
            LibrdkafkaStatistics.Enable(settings);
        }
        var builder = new ProducerBuilder<long, byte[]>(settings)
            .SetKeySerializer(new ConfluentWorkload.KeySerializer(RecordKeys.For(spec.Settings)))
            .SetValueSerializer(Serializers.ByteArray)
            .SetLogHandler(static (_, _) => { });
        if (_statistics is not null) builder.SetStatisticsHandler((_, json) => _statistics.OnStatistics(json));
        _producer = builder.Build();
        _transactionTimeout = spec.StallTimeout;
        if (spec.Settings.TransactionRecords is not null) ConfluentWorkload.InitTransactions(_producer, spec.StallTimeout);
        EffectiveConfig = ConfluentClient.PrepareProducer(_producer, binding, settings, spec.Topic, metadataTimeout);
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public ClientBreakdown ReadBreakdown() => _statistics?.ReadBreakdown() ?? default;

    public void BeginTransaction() => _producer.BeginTransaction();

    // Bounded by the stall timeout (librdkafka's transactional calls take a timeout, not a token).
    public void CommitTransaction(CancellationToken cancellationToken) => _producer.CommitTransaction(_transactionTimeout);

    public void AbortTransaction(CancellationToken cancellationToken) => _producer.AbortTransaction(_transactionTimeout);

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        if (!value.Equals(_value))
        {
            _value = value;
            _message.Value = WholeArray(value);
        }
        _message.Key = key;
        while (true)
        {
            try
            {
                _producer.Produce(_topicPartition, _message, _onDelivery);
                return;
            }
            catch (ProduceException<long, byte[]> ex) when (ex.Error.Code == ErrorCode.Local_QueueFull)
            {
                // librdkafka's queue is full: wait for delivery reports to drain some, then send again - unless the run
                // was cancelled or stalled (a broker that is gone drains nothing until message.timeout.ms, 5 min).
                _cancellation.ThrowIfCancellationRequested();
                _producer.Poll(QueueFullWait);
            }
        }
    }

    public void Flush(CancellationToken cancellationToken)
    {
        // Flush(CancellationToken) waits in 100 ms calls to rd_kafka_flush, which polls for at most 10 ms at a time;
        // when Confluent.Kafka's own poll thread takes the last delivery report, that wait runs out in full, so the
        // timed section could end up to 10 ms after the last acknowledgement. 1 ms calls keep that under 1 ms.
        while (_producer.Flush(FlushStep) > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            _cancellation.ThrowIfCancellationRequested();
        }
    }

    public void Dispose() => PollWakeup.DisposeProducer(_producer);

    /// <summary>The payload as an array of its exact length; librdkafka copies it on every produce.</summary>
    private static byte[] WholeArray(ReadOnlyMemory<byte> value) =>
        MemoryMarshal.TryGetArray(value, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : value.ToArray();
}
