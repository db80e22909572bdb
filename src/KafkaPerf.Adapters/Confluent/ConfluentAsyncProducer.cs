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
internal sealed class ConfluentAsyncProducer : ConfluentProducerBase
{
    /// <summary>The <c>-X</c> key of the window (records in flight); not a librdkafka setting.</summary>
    public const string WindowKey = "window";

    /// <summary>The window of <c>confluent-async</c> when <c>-X confluent-async:window=</c> does not say: librdkafka's own
    /// queue limit (<c>queue.buffering.max.messages</c>, 100 000), the most records a producer holds unsent anyway.</summary>
    /// <remarks>A smaller window caps throughput at window / <c>linger.ms</c> when batches fill by time rather than size:
    /// with the seed's 100 ms linger, 1 000 in flight gave 10 858 msg/s at 100 B where <c>confluent</c> made 732 065
    /// (docs/BENCHMARKS.md).</remarks>
    public const int DefaultWindow = 100_000;

    /// <summary>How long a send waits for deliveries when librdkafka's queue is full, as <c>confluent</c>'s does.</summary>
    private static readonly TimeSpan QueueFullWait = TimeSpan.FromMilliseconds(5);

    private readonly string _topic;
    private readonly SemaphoreSlim _window;
    private readonly int _windowSize;
    private readonly Action<Task<DeliveryResult<long, byte[]>>> _completed;
    private ReadOnlyMemory<byte> _value;
    private byte[] _array = [];
    private readonly Headers? _headers;
    private readonly bool _idInValue;

    public ConfluentAsyncProducer(ProducerSpec spec, IDeliverySink sink, string bootstrap, KafkaSecurity security, LibrdkafkaBinding binding, TimeSpan metadataTimeout, int window)
        // Confluent.Kafka's own Int64 serializer, as application code has it; the workload's keys when a run sets them.
        : base(spec, ConfluentSettings.Producer(bootstrap, spec.Settings, styleDefaults: true, security), binding, metadataTimeout, builder =>
        {
            if (spec.Settings.HasWorkload) builder.SetKeySerializer(new ConfluentWorkload.KeySerializer(RecordKeys.For(spec.Settings)));
        })
    {
        _topic = spec.Topic;
        _windowSize = window;
        _window = new SemaphoreSlim(window, window);
        _completed = task =>
        {
            if (task.IsCompletedSuccessfully) sink.OnDelivered(task.Result.Message.Key, task.Result.Partition.Value, task.Result.Offset.Value);
            else if (task.Exception?.InnerException is ProduceException<long, byte[]> failed) sink.OnDeliveryFailed(failed.DeliveryResult.Message.Key, failed.Error.Reason);
            else sink.OnDeliveryFailed(long.MinValue, task.Exception?.InnerException?.Message ?? "ProduceAsync was cancelled");
            _window.Release();
        };
        _headers = ConfluentWorkload.HeadersOf(spec.Settings);
        _idInValue = spec.Settings.IdInValue;
    }

    public override void Send(long key, ReadOnlyMemory<byte> value)
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
        _window.Wait(Cancellation);
        Task<DeliveryResult<long, byte[]>> task;
        try
        {
            while (true)
            {
                task = Producer.ProduceAsync(_topic, new Message<long, byte[]> { Key = key, Value = _array, Headers = _headers }, CancellationToken.None);
                // A window larger than librdkafka's queue (queue.buffering.max.messages, or .kbytes: 100 000 records of
                // 10 KB are about its 1 GiB) fills it: ProduceAsync then returns a task already failed with "Local:
                // Queue full". Application code waits for deliveries and sends again, as confluent's Produce does.
                if (!task.IsFaulted || task.Exception!.InnerException is not ProduceException<long, byte[]> { Error.Code: ErrorCode.Local_QueueFull })
                    break;
                Cancellation.ThrowIfCancellationRequested();
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

    public override void Flush(CancellationToken cancellationToken)
    {
        base.Flush(cancellationToken);
        // The last continuations may still be queued on the thread pool: wait until every send's window slot is back.
        for (int i = 0; i < _windowSize; i++) _window.Wait(Cancellation);
        _window.Release(_windowSize);
    }

    public override void Dispose()
    {
        base.Dispose();
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
