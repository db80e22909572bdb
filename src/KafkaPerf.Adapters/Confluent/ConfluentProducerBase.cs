using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// What Confluent.Kafka's producers have in common whatever their calling style: the handle built from a variant's
/// settings (with librdkafka's statistics when the run asks for the breakdown), transactions bounded by the stall
/// timeout, the topic's metadata and leaders fetched before the first timed send, and a flush in short steps.
/// Each style's <see cref="Send"/> is its own.
/// </summary>
internal abstract class ConfluentProducerBase : IBenchProducer, IClientBreakdown
{
    private static readonly TimeSpan FlushStep = TimeSpan.FromMilliseconds(1);

    private readonly TimeSpan _transactionTimeout;
    private readonly LibrdkafkaStatistics? _statistics;

    /// <summary>Builds and prepares the producer.</summary>
    /// <param name="spec">The run's producer.</param>
    /// <param name="settings">librdkafka's settings for this style.</param>
    /// <param name="binding">The librdkafka file in use.</param>
    /// <param name="metadataTimeout">How long the topic's metadata may take.</param>
    /// <param name="configure">This style's serializers and handlers.</param>
    protected ConfluentProducerBase(ProducerSpec spec, List<KeyValuePair<string, string>> settings, LibrdkafkaBinding binding, TimeSpan metadataTimeout,
        Action<ProducerBuilder<long, byte[]>> configure)
    {
        Cancellation = spec.Cancellation;
        if (spec.Statistics)
        {
            _statistics = new LibrdkafkaStatistics();
            LibrdkafkaStatistics.Enable(settings);
        }
        var builder = new ProducerBuilder<long, byte[]>(settings).SetLogHandler(static (_, _) => { });
        configure(builder);
        if (_statistics is not null) builder.SetStatisticsHandler((_, json) => _statistics.OnStatistics(json));
        Producer = builder.Build();
        _transactionTimeout = spec.StallTimeout;
        if (spec.Settings.TransactionRecords is not null) ConfluentWorkload.InitTransactions(Producer, spec.StallTimeout);
        EffectiveConfig = ConfluentClient.PrepareProducer(Producer, binding, settings, spec.Topic, metadataTimeout);
    }

    /// <summary>The producer's handle.</summary>
    protected IProducer<long, byte[]> Producer { get; }

    /// <summary>The run's cancellation: a send that waits for room gives up when it fires.</summary>
    protected CancellationToken Cancellation { get; }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public ClientBreakdown ReadBreakdown() => _statistics?.ReadBreakdown() ?? default;

    public void BeginTransaction() => Producer.BeginTransaction();

    // Bounded by the stall timeout (librdkafka's transactional calls take a timeout, not a token).
    public void CommitTransaction(CancellationToken cancellationToken) => Producer.CommitTransaction(_transactionTimeout);

    public void AbortTransaction(CancellationToken cancellationToken) => Producer.AbortTransaction(_transactionTimeout);

    public abstract void Send(long key, ReadOnlyMemory<byte> value);

    public virtual void Flush(CancellationToken cancellationToken)
    {
        // Flush(CancellationToken) waits in 100 ms calls to rd_kafka_flush, which polls for at most 10 ms at a time;
        // when Confluent.Kafka's own poll thread takes the last delivery report, that wait runs out in full, so the
        // timed section could end up to 10 ms after the last acknowledgement. 1 ms calls keep that under 1 ms.
        while (Producer.Flush(FlushStep) > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            Cancellation.ThrowIfCancellationRequested();
        }
    }

    public virtual void Dispose() => PollWakeup.DisposeProducer(Producer);
}
