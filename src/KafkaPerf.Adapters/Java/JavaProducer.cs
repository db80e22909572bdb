using System.Buffers.Binary;
using System.Runtime.InteropServices;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Java;

/// <summary>
/// The Java producers. <c>java</c> crosses into Java once per record with <c>send(long key, byte[] value)</c>, the value
/// copied into a new Java array as a bridge does; <c>java-batched</c> packs records (key, length, value) into native
/// memory that Java sees as a direct buffer and crosses once per batch; <c>java-records</c> builds every
/// <c>ProducerRecord</c> from .NET as a bridge does (<c>Long.valueOf</c>, a new <c>byte[]</c>, <c>new ProducerRecord</c>,
/// a new callback object, <c>KafkaProducer.send(record, callback)</c>). Acknowledgements come back per record through a
/// native callback on the Java producer's I/O thread.
/// </summary>
/// <remarks>The creating thread is attached to the JVM for the producer's life (the scenario creates, sends, flushes and
/// disposes on one thread); <see cref="Send"/> must be called on it.</remarks>
internal sealed unsafe class JavaProducer : IBenchProducer, IClientBreakdown
{
    private const int RecordHeader = sizeof(long) + sizeof(int);

    private readonly JavaRuntime _runtime;
    private readonly JniThread _thread;
    private readonly JniEnv _env;
    private readonly IntPtr _producer;
    private readonly long _sinkHandle;
    private readonly bool _batched;
    private readonly bool _records;
    private readonly IntPtr _kafkaProducer;
    private readonly IntPtr _topicRef;
    private readonly IntPtr _headersRef;
    private readonly int _batchRecords;
    private byte* _buffer;
    private int _capacity;
    private IntPtr _bufferRef;
    private int _used;
    private int _count;
    private readonly CancellationToken _cancellation;
    private readonly long _closeTimeoutMs;
    private readonly JavaInterrupt _interrupt;
    private bool _disposed;
    private readonly Lock _statsLock = new();
    private bool _closed;
    private bool _unfinished;

    public JavaProducer(JavaRuntime runtime, ProducerSpec spec, IDeliverySink sink, string bootstrap, KafkaSecurity security, JavaClientOptions options, JavaStyle style)
    {
        _runtime = runtime;
        bool batched = style == JavaStyle.Batched;
        _batched = batched;
        _records = style == JavaStyle.Records;
        _batchRecords = options.BatchRecords;
        var settings = JavaSettings.Flatten(JavaSettings.Producer(bootstrap, spec.Settings, security, spec.Statistics));
        _thread = runtime.Host.AttachCurrentThread("kafkaperf-" + JavaClientFactory.NameOf(style) + "-send");
        _env = _thread.Env;
        _sinkHandle = JavaRuntime.NewSinkHandle(sink);
        _cancellation = spec.Cancellation;
        _closeTimeoutMs = (long)spec.StallTimeout.TotalMilliseconds;
        // Every blocking call of this thread into the producer - its creation included - ends when the run is cancelled
        // or stalls.
        _interrupt = runtime.InterruptOn(_env, spec.Cancellation);
        try
        {
            EffectiveConfig = JavaRuntime.Effective(_env, runtime.EffectiveProducer, runtime, settings);
            var array = _env.NewStringArray(runtime.StringClass, settings);
            var topic = _env.NewString(spec.Topic);
            try
            {
                var local = _env.NewObject(runtime.ProducerClass, runtime.ProducerInit,
                    [JValue.Ref(array), JValue.Ref(topic), JValue.Of(_sinkHandle), JValue.Of((int)Math.Min(spec.StallTimeout.TotalMilliseconds, int.MaxValue))]);
                _producer = _env.NewGlobalRef(local);
                _env.DeleteLocalRef(local);
            }
            finally
            {
                _env.DeleteLocalRef(topic);
                _env.DeleteLocalRef(array);
            }
            if (spec.Settings.HasWorkload || spec.Settings.Keys is not null) Workload(spec.Settings);
            if (batched) Allocate(options.BatchBytes);
            if (_records)
            {
                var kafka = _env.CallObject(_producer, runtime.Bridge.KafkaProducerOf, []);
                _kafkaProducer = _env.NewGlobalRef(kafka);
                _env.DeleteLocalRef(kafka);
                var headers = _env.CallObject(_producer, runtime.Bridge.HeadersOf, []);
                if (headers != IntPtr.Zero)
                {
                    _headersRef = _env.NewGlobalRef(headers);
                    _env.DeleteLocalRef(headers);
                }
                var name = _env.NewString(spec.Topic);
                _topicRef = _env.NewGlobalRef(name);
                _env.DeleteLocalRef(name);
            }
        }
        catch (Exception ex)
        {
            _interrupt.Dispose();
            if (_producer != IntPtr.Zero) Close(_env, 0);
            ReleaseNative();
            if (ex is JavaException && spec.Cancellation.IsCancellationRequested)
                throw new OperationCanceledException("Creating the producer was cancelled.", ex, spec.Cancellation);
            throw;
        }
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    /// <summary>The producer's own metrics, read by the interval sampler on its thread (five calls into Java, taken back
    /// from <c>jni.calls</c>); nothing once the producer is closed.</summary>
    public ClientBreakdown ReadBreakdown()
    {
        lock (_statsLock)
        {
            if (_disposed || _producer == IntPtr.Zero) return default;
            var m = _runtime.ReadMetrics(_producer, _runtime.StatsProducerMetric, 5);
            return new ClientBreakdown(QueueMs: m[0], RequestMs: m[1], BatchBytes: m[2], RecordsPerRequest: m[3], ThrottleMs: m[4]);
        }
    }

    /// <summary>Gives the Java producer the run's keys (its serializer computes each record's key from its id, as
    /// <see cref="RecordKeys"/> does; zipf's thresholds are passed, not recomputed) and headers.</summary>
    private void Workload(ClientSettings settings)
    {
        var keys = RecordKeys.For(settings);
        var thresholds = new byte[keys.Thresholds.Length * sizeof(long)];
        for (int i = 0; i < keys.Thresholds.Length; i++)
            System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(thresholds.AsSpan(i * sizeof(long)), keys.Thresholds[i]);
        var array = _env.NewByteArray(thresholds);
        try
        {
            _env.CallVoid(_producer, _runtime.ProducerWorkload, [JValue.Of((int)keys.Spec.Mode), JValue.Of(keys.Spec.Count), JValue.Of(keys.KeySize),
                JValue.Ref(array), JValue.Of(settings.Headers?.Count ?? 0), JValue.Of(settings.Headers?.Bytes ?? 0)]);
        }
        finally
        {
            _env.DeleteLocalRef(array);
        }
    }

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        CheckUsable();
        var span = value.Span;
        if (_records)
        {
            SendRecord(key, span);
            return;
        }
        if (!_batched)
        {
            var array = _env.NewByteArray(span);
            try
            {
                _env.CallVoid(_producer, _runtime.ProducerSend, [JValue.Of(key), JValue.Ref(array)]);
            }
            catch (JavaException ex) when (_cancellation.IsCancellationRequested)
            {
                _unfinished = true;
                throw new OperationCanceledException("The send was interrupted.", ex, _cancellation);
            }
            finally
            {
                _env.DeleteLocalRef(array);
            }
            return;
        }
        int needed = RecordHeader + span.Length;
        if (_used + needed > _capacity)
        {
            SendBatch();
            if (needed > _capacity) Allocate(needed);
        }
        var target = new Span<byte>(_buffer + _used, needed);
        BinaryPrimitives.WriteInt64LittleEndian(target, key);
        BinaryPrimitives.WriteInt32LittleEndian(target[sizeof(long)..], span.Length);
        span.CopyTo(target[RecordHeader..]);
        _used += needed;
        if (++_count == _batchRecords) SendBatch();
    }

    /// <summary>What a bridge's <c>producer.Send(new ProducerRecord(topic, key, value), callback)</c> does: the key boxed by
    /// <c>Long.valueOf</c>, the value copied into a new <c>byte[]</c>, a <c>ProducerRecord</c> and a callback object made,
    /// and <c>KafkaProducer.send</c> called - four calls into Java per record, the local references freed after each.</summary>
    private void SendRecord(long key, ReadOnlySpan<byte> span)
    {
        var bridge = _runtime.Bridge;
        IntPtr boxed = IntPtr.Zero, array = IntPtr.Zero, record = IntPtr.Zero, callback = IntPtr.Zero, future = IntPtr.Zero;
        try
        {
            boxed = _env.CallStaticObject(bridge.LongClass, bridge.LongValueOf, [JValue.Of(key)]);
            array = _env.NewByteArray(span);
            record = _headersRef == IntPtr.Zero
                ? _env.NewObject(bridge.RecordClass, bridge.RecordInit, [JValue.Ref(_topicRef), JValue.Ref(boxed), JValue.Ref(array)])
                : _env.NewObject(bridge.RecordClass, bridge.RecordInitWithHeaders,
                    [JValue.Ref(_topicRef), JValue.Ref(IntPtr.Zero), JValue.Ref(boxed), JValue.Ref(array), JValue.Ref(_headersRef)]);
            callback = _env.NewObject(bridge.CallbackClass, bridge.CallbackInit, [JValue.Ref(_producer), JValue.Of(key)]);
            future = _env.CallObject(_kafkaProducer, bridge.Send, [JValue.Ref(record), JValue.Ref(callback)]);
        }
        catch (JavaException ex) when (_cancellation.IsCancellationRequested)
        {
            _unfinished = true;
            throw new OperationCanceledException("The send was interrupted.", ex, _cancellation);
        }
        finally
        {
            _env.DeleteLocalRef(future);
            _env.DeleteLocalRef(callback);
            _env.DeleteLocalRef(record);
            _env.DeleteLocalRef(array);
            _env.DeleteLocalRef(boxed);
        }
    }

    /// <summary><c>java-batched</c> hands its partly filled batch to Java, so that a send schedule's wait never holds
    /// records back; <c>java</c> holds nothing.</summary>
    public void SendBuffered()
    {
        CheckUsable();
        if (_batched) SendBatch();
    }

    // KafkaProducer.flush blocks until every record is acknowledged or has failed (up to delivery.timeout.ms, 2 min by
    // default); a cancellation interrupts it from the cancelling thread.
    public void Flush(CancellationToken cancellationToken) => Blocking(_runtime.ProducerFlush, "flush", cancellationToken);

    public void BeginTransaction()
    {
        CheckUsable();
        _env.CallVoid(_producer, _runtime.ProducerBeginTransaction, []);
    }

    // A commit flushes the transaction's records first, then waits for the coordinator: as long as a flush, and ended the same way.
    public void CommitTransaction(CancellationToken cancellationToken) => Blocking(_runtime.ProducerCommitTransaction, "commit", cancellationToken);

    public void AbortTransaction(CancellationToken cancellationToken) => Blocking(_runtime.ProducerAbortTransaction, "abort", cancellationToken);

    /// <summary>A call into the producer that blocks until the broker answers: the records held back go first, and a
    /// cancellation interrupts it.</summary>
    private void Blocking(IntPtr method, string what, CancellationToken cancellationToken)
    {
        CheckUsable();
        cancellationToken.ThrowIfCancellationRequested();
        if (_batched) SendBatch();
        using var interrupt = cancellationToken != _cancellation ? _runtime.InterruptOn(_env, cancellationToken) : null;
        try
        {
            _env.CallVoid(_producer, method, []);
        }
        catch (JavaException ex) when (cancellationToken.IsCancellationRequested || _cancellation.IsCancellationRequested)
        {
            _unfinished = true;
            throw new OperationCanceledException($"The {what} was interrupted.", ex, cancellationToken.IsCancellationRequested ? cancellationToken : _cancellation);
        }
        catch (JavaException)
        {
            _unfinished = true;
            throw;
        }
    }

    private void CheckUsable()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!_thread.IsCurrentThread) throw new InvalidOperationException("A Java producer is used on the thread that created it.");
    }

    /// <remarks>Dispose on the creating thread: on another one, the creating thread stays attached to the JVM.</remarks>
    public void Dispose()
    {
        if (_disposed) return;
        lock (_statsLock) _disposed = true;
        _interrupt.Dispose();
        // After a stall or a cancellation nothing is waited for: the broker may be gone.
        long timeoutMs = _unfinished || _cancellation.IsCancellationRequested ? 0 : _closeTimeoutMs;
        if (_thread.IsCurrentThread)
        {
            Close(_env, timeoutMs);
        }
        else
        {
            using var other = _runtime.Host.AttachCurrentThread("kafkaperf-java-close");
            Close(other.Env, timeoutMs);
        }
        ReleaseNative();
    }

    private void Close(JniEnv env, long timeoutMs)
    {
        try
        {
            // Waits (up to the stall timeout, or not at all after a stall) for records in flight; no callback reaches
            // .NET after it returns.
            env.CallVoid(_producer, _runtime.ProducerClose, [JValue.Of(timeoutMs)]);
            _closed = true;
        }
        catch (JavaException)
        {
            // Closing is best effort; the run's result already says what was delivered. Java may still call back, so the
            // sink handle stays allocated (a small leak rather than a callback into freed memory).
        }
        env.DeleteGlobalRef(_producer);
        env.DeleteGlobalRef(_kafkaProducer);
        env.DeleteGlobalRef(_topicRef);
        env.DeleteGlobalRef(_headersRef);
        env.DeleteGlobalRef(_bufferRef);
        _bufferRef = IntPtr.Zero;
    }

    private void ReleaseNative()
    {
        if (_closed || _producer == IntPtr.Zero) JavaRuntime.FreeSinkHandle(_sinkHandle);
        if (_buffer is not null) NativeMemory.Free(_buffer);
        _buffer = null;
        if (_thread.IsCurrentThread) _thread.Dispose();
    }

    private void SendBatch()
    {
        if (_count == 0) return;
        int count = _count;
        _count = 0;
        _used = 0;
        try
        {
            _env.CallVoid(_producer, _runtime.ProducerSendPacked, [JValue.Ref(_bufferRef), JValue.Of(count)]);
        }
        catch (JavaException ex) when (_cancellation.IsCancellationRequested)
        {
            _unfinished = true;
            throw new OperationCanceledException("The send was interrupted.", ex, _cancellation);
        }
    }

    private void Allocate(int capacity)
    {
        _env.DeleteGlobalRef(_bufferRef);
        _bufferRef = IntPtr.Zero;
        if (_buffer is not null) NativeMemory.Free(_buffer);
        _buffer = null;
        _buffer = (byte*)NativeMemory.Alloc((nuint)capacity);
        _capacity = capacity;
        var local = _env.NewDirectByteBuffer(_buffer, capacity);
        _bufferRef = _env.NewGlobalRef(local);
        _env.DeleteLocalRef(local);
    }
}
