using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// <c>confluent-sync</c> and <c>confluent-async</c>'s producer: <c>ProduceAsync</c> per record with a new
/// <c>Message</c>, Confluent.Kafka's own serializers, and up to <c>window</c> tasks in flight, each awaited as it
/// completes (window 1: one in flight, the synchronous style). This is what application code writes; the cost of a
/// <c>Task</c>, a message object and a serialized key per record is the style's, not the harness's.
/// </summary>
/// <remarks>Each task's continuation reports the delivery and opens the window for the next send; Confluent.Kafka
/// completes the tasks asynchronously (on the thread pool), as an <c>await</c> resumes.</remarks>
internal sealed class ConfluentAsyncProducer : IBenchProducer, IClientBreakdown
{
    /// <summary>The <c>-X</c> key of the window (records in flight); not a librdkafka setting.</summary>
    public const string WindowKey = "window";

    /// <summary>The window of <c>confluent-async</c> when <c>-X confluent-async:window=</c> does not say: librdkafka's own
    /// queue limit (<c>queue.buffering.max.messages</c>, 100 000), the most records a producer holds unsent anyway.</summary>
    /// <remarks>A smaller window caps throughput at window / <c>linger.ms</c> when batches fill by time rather than size:
    /// with the seed's 100 ms linger, 1 000 in flight gave 10 858 msg/s at 100 B where <c>confluent</c> made 732 065
    /// (docs/BENCHMARKS.md).</remarks>
    public const int DefaultWindow = 100_000;

    private static readonly TimeSpan FlushStep = TimeSpan.FromMilliseconds(1);

    /// <summary>How long a send waits for deliveries when librdkafka's queue is full, as <c>confluent</c>'s does.</summary>
    private static readonly TimeSpan QueueFullWait = TimeSpan.FromMilliseconds(5);

    private readonly IProducer<long, byte[]> _producer;
    private readonly string _topic;
    private readonly SemaphoreSlim _window;
    private readonly int _windowSize;
    private readonly Action<Task<DeliveryResult<long, byte[]>>> _completed;
    private readonly CancellationToken _cancellation;
    private readonly TimeSpan _transactionTimeout;
    private ReadOnlyMemory<byte> _value;
    private byte[] _array = [];
    private readonly Headers? _headers;
    private readonly bool _idInValue;
    private readonly LibrdkafkaStatistics? _statistics;

    public ConfluentAsyncProducer(ProducerSpec spec, IDeliverySink sink, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, TimeSpan metadataTimeout, int window)
    {
        var settings = ConfluentSettings.Producer(bootstrap, spec.Settings, styleDefaults: true, security);
        _topic = spec.Topic;
        _cancellation = spec.Cancellation;
        _windowSize = window;
        _window = new SemaphoreSlim(window, window);
        _completed = task =>
        {
            if (task.IsCompletedSuccessfully) sink.OnDelivered(task.Result.Message.Key, task.Result.Partition.Value, task.Result.Offset.Value);
            else if (task.Exception?.InnerException is ProduceException<long, byte[]> failed) sink.OnDeliveryFailed(failed.DeliveryResult.Message.Key, failed.Error.Reason);
            else sink.OnDeliveryFailed(long.MinValue, task.Exception?.InnerException?.Message ?? "ProduceAsync was cancelled");
            _window.Release();
        };
        // Confluent.Kafka's own Int64 serializer, as application code has it; the workload's keys when a run sets them.
        if (spec.Statistics)
        {
            _statistics = new LibrdkafkaStatistics();
            LibrdkafkaStatistics.Enable(settings);
        }
        var builder = new ProducerBuilder<long, byte[]>(settings).SetLogHandler(static (_, _) => { });
        if (_statistics is not null) builder.SetStatisticsHandler((_, json) => _statistics.OnStatistics(json));
        if (spec.Settings.HasWorkload) builder.SetKeySerializer(new ConfluentWorkload.KeySerializer(RecordKeys.For(spec.Settings)));
        _headers = ConfluentWorkload.HeadersOf(spec.Settings);
        _idInValue = spec.Settings.IdInValue;
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
            _array = value.ToArray();
        }
        else if (_idInValue)
        {
            // The one part of the value that changes from record to record (ProduceAsync has copied the last one).
            value.Span[..RecordKeys.IdBytes].CopyTo(_array);
        }
        _window.Wait(_cancellation);
        Task<DeliveryResult<long, byte[]>> task;
        try
        {
            while (true)
            {
                task = _producer.ProduceAsync(_topic, new Message<long, byte[]> { Key = key, Value = _array, Headers = _headers }, CancellationToken.None);
                // A window larger than librdkafka's queue (queue.buffering.max.messages, or .kbytes: 100 000 records of
                // 10 KB are about its 1 GiB) fills it: ProduceAsync then returns a task already failed with "Local:
                // Queue full". Application code waits for deliveries and sends again, as confluent's Produce does.
                if (!task.IsFaulted || task.Exception!.InnerException is not ProduceException<long, byte[]> { Error.Code: ErrorCode.Local_QueueFull })
                    break;
                _cancellation.ThrowIfCancellationRequested();
                Thread.Sleep(QueueFullWait);
            }
        }
        catch
        {
            _window.Release();
            throw;
        }
        task.ContinueWith(_completed, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
    }

    public void Flush(CancellationToken cancellationToken)
    {
        while (_producer.Flush(FlushStep) > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            _cancellation.ThrowIfCancellationRequested();
        }
        // The last continuations may still be queued on the thread pool: wait until every send's window slot is back.
        for (int i = 0; i < _windowSize; i++) _window.Wait(_cancellation);
        _window.Release(_windowSize);
    }

    public void Dispose()
    {
        PollWakeup.DisposeProducer(_producer);
        _window.Dispose();
    }

    /// <summary>Reads the window from a variant's <c>-X</c> settings.</summary>
    /// <param name="settings">The client's settings.</param>
    /// <param name="clientName">The variant's name, for the message.</param>
    /// <param name="fallback">The window when none is set.</param>
    /// <returns>The window.</returns>
    /// <exception cref="ArgumentException">The value is not a positive integer.</exception>
    public static int Window(ClientSettings settings, string clientName, int fallback)
    {
        if (!settings.Overrides.TryGetValue(WindowKey, out var text)) return fallback;
        if (!int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int window) || window < 1)
            throw new ArgumentException($"-X {clientName}:{WindowKey}={text} is not a window: give the number of ProduceAsync calls in flight, a positive integer, e.g. -X {clientName}:{WindowKey}=1000.");
        return window;
    }
}
