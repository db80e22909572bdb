using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// What the Confluent.Kafka consumers share: the partition-assigned handler signals <see cref="IRecordSink.OnAssigned"/>
/// before any record, a fatal error reaches the sink, and a dedicated thread polls until <see cref="StopPolling"/>;
/// <see cref="Consume"/> is the variant's own loop body.
/// </summary>
/// <typeparam name="TValue">The value type the variant deserializes to.</typeparam>
internal abstract class ConfluentPollingConsumer<TValue> : IBenchConsumer, IClientBreakdown, IGroupMember
{
    /// <summary>How long one <c>Consume</c> call waits for a record.</summary>
    protected static readonly TimeSpan PollTimeout = TimeSpan.FromMilliseconds(100);

    private readonly IConsumer<long, TValue> _consumer;
    private readonly LibrdkafkaStatistics? _statistics;
    private readonly string _topic;
    private readonly string _threadName;
    private readonly CancellationToken _cancellation;
    private Thread? _thread;
    private volatile bool _stop;
    private int _ended;

    /// <summary>Builds the consumer and records its effective configuration.</summary>
    /// <param name="spec">The run's consumer.</param>
    /// <param name="binding">librdkafka, for the configuration dump.</param>
    /// <param name="settings">The librdkafka settings.</param>
    /// <param name="configure">The variant's deserializers.</param>
    /// <param name="threadName">The poll thread's name.</param>
    protected ConfluentPollingConsumer(ConsumerSpec spec, LibrdkafkaBinding binding, List<KeyValuePair<string, string>> settings,
        Func<ConsumerBuilder<long, TValue>, ConsumerBuilder<long, TValue>> configure, string threadName)
    {
        _topic = spec.Topic;
        _cancellation = spec.Cancellation;
        _threadName = threadName;
        if (spec.Statistics)
        {
            _statistics = new LibrdkafkaStatistics(consumer: true);
            LibrdkafkaStatistics.Enable(settings);
        }
        var builder = new ConsumerBuilder<long, TValue>(settings);
        // Emitted from the poll loop's Consume calls, once a second: the parse (about 50 µs) is the price of the breakdown.
        if (_statistics is not null) builder.SetStatisticsHandler((_, json) => _statistics.OnStatistics(json));
        _consumer = configure(builder)
            // Called on the poll thread, inside Consume; the Action forms let Confluent.Kafka (incrementally) assign and
            // unassign as it would without a handler.
            .SetPartitionsAssignedHandler((_, partitions) =>
            {
                Sink?.OnPartitionsAssigned(Numbers(partitions));
                Sink?.OnAssigned();
            })
            .SetPartitionsRevokedHandler((_, partitions) => Sink?.OnPartitionsRevoked(Numbers(partitions), lost: false))
            .SetPartitionsLostHandler((_, partitions) => Sink?.OnPartitionsRevoked(Numbers(partitions), lost: true))
            .SetErrorHandler((_, error) =>
            {
                if (error.IsFatal) Sink?.OnError(error.Reason);
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

    /// <summary>The consumer's fetch round trip and lag from librdkafka's statistics (none unless the spec asked for them).</summary>
    public ClientBreakdown ReadBreakdown() => _statistics?.ReadBreakdown() ?? default;

    public bool PrefetchEnabled => false;

    /// <summary>Where records go, once polling has started.</summary>
    protected IRecordSink? Sink { get; private set; }

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer is already polling.");
        Sink = sink;
        _consumer.Subscribe(_topic);
        _thread = new Thread(Poll) { IsBackground = true, Name = _threadName };
        _thread.Start();
    }

    public void StopPolling()
    {
        bool first = !_stop;
        _stop = true;
        if (_thread is null) return;
        // The poll thread may be waiting in Consume for up to its poll timeout: woken, it sees the stop at once. Once is
        // enough: a member that left or crashed is stopped again when the run ends, its handle gone by then.
        if (first) PollWakeup.WakeConsumer(_consumer);
        _thread.Join();
    }

    /// <summary>Stops polling, then closes: commits, leaves the group (a static member does not) and waits for the broker,
    /// bounded by librdkafka's own timeouts.</summary>
    public void Leave()
    {
        if (Interlocked.Exchange(ref _ended, 1) != 0) return;
        StopPolling();
        try
        {
            _consumer.Close();
        }
        catch (KafkaException)
        {
            // The broker may be gone; the handle is released below either way.
        }
        _consumer.Dispose();
    }

    /// <summary>Stops polling and releases the handle without closing: Confluent.Kafka's Dispose destroys librdkafka's
    /// handle without the consumer close (no commit, no LeaveGroup), as a process that died.</summary>
    public void Crash()
    {
        if (Interlocked.Exchange(ref _ended, 1) != 0) return;
        StopPolling();
        _consumer.Dispose();
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _ended, 1) != 0) return;
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

    private static int[] Numbers(List<TopicPartition> partitions) => [.. partitions.Select(p => p.Partition.Value)];

    private static int[] Numbers(List<TopicPartitionOffset> partitions) => [.. partitions.Select(p => p.Partition.Value)];

    /// <summary>One turn of the poll loop: consume and hand what came to the sink.</summary>
    /// <param name="consumer">The consumer.</param>
    /// <param name="sink">Where records go.</param>
    protected abstract void Consume(IConsumer<long, TValue> consumer, IRecordSink sink);

    private void Poll()
    {
        var sink = Sink!;
        while (!_stop)
        {
            try
            {
                Consume(_consumer, sink);
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
}
