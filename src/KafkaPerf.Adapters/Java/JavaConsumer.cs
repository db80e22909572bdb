using System.Buffers.Binary;
using System.Runtime.InteropServices;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Java;

/// <summary>
/// The Java consumer of <c>java</c> and <c>java-batched</c>: a .NET poll thread (attached to the JVM for its life) calls
/// Java's <c>poll</c>, which packs the polled records - keys and values - into native memory; one crossing hands .NET
/// many records, which reach the sink as spans over that memory, each with its partition and offset. <c>java-records</c>
/// instead iterates each poll's <c>ConsumerRecords</c> from .NET as a bridge does: <c>hasNext</c>, <c>next</c>,
/// <c>key</c>, <c>value</c>, <c>partition</c> and <c>offset</c> per record, the key and value copied out of their Java
/// arrays (into one reused buffer). With prefetch, a
/// Java thread polls the next batch while .NET handles the current one.
/// </summary>
internal sealed unsafe class JavaConsumer : IBenchConsumer, IClientBreakdown, IGroupMember
{
    private const int PollTimeoutMs = 100;

    /// <summary>What precedes each packed record's value: key, partition, offset, value length (BenchConsumer.java).</summary>
    private const int RecordHeaderBytes = sizeof(long) + sizeof(int) + sizeof(long) + sizeof(int);

    private readonly JavaRuntime _runtime;
    private readonly IntPtr _consumer;
    private readonly long _sinkHandle;
    private readonly SinkBox _box = new();
    private Thread? _thread;
    private volatile bool _stop;
    private byte* _buffer;
    private int _capacity;
    private IntPtr _bufferRef;
    private readonly CancellationToken _cancellation;
    private readonly long _closeTimeoutMs;
    private readonly bool _records;
    private readonly bool _share;
    private bool _disposed;
    // Held while the sampler reads the consumer's metrics, and by Dispose before it releases the consumer.
    private readonly Lock _statsLock = new();

    public JavaConsumer(JavaRuntime runtime, ConsumerSpec spec, string bootstrap, KafkaSecurity security, int bufferBytes, bool records = false)
    {
        _runtime = runtime;
        _records = records;
        PrefetchEnabled = spec.UsePrefetch;
        _cancellation = spec.Cancellation;
        _closeTimeoutMs = (long)spec.StallTimeout.TotalMilliseconds;
        _share = spec.Settings.Group.IsShare();
        var settings = JavaSettings.Flatten(JavaSettings.Consumer(bootstrap, spec.GroupId, spec.Settings, security, spec.Statistics, spec.InstanceId));
        _sinkHandle = JavaRuntime.NewSinkHandle(_box);
        using var thread = runtime.Host.AttachCurrentThread("kafkaperf-java-consumer-setup");
        var env = thread.Env;
        try
        {
            EffectiveConfig = JavaRuntime.Effective(env, runtime.EffectiveConsumer, runtime, settings);
            var array = env.NewStringArray(runtime.StringClass, settings);
            var topic = env.NewString(spec.Topic);
            try
            {
                var local = env.NewObject(runtime.ConsumerClass, runtime.ConsumerInit,
                    [JValue.Ref(array), JValue.Ref(topic), JValue.Of(_sinkHandle), JValue.Of(spec.UsePrefetch), JValue.Of((int)(spec.Settings.Group ?? ConsumerGroupKind.Classic))]);
                _consumer = env.NewGlobalRef(local);
                env.DeleteLocalRef(local);
            }
            finally
            {
                env.DeleteLocalRef(topic);
                env.DeleteLocalRef(array);
            }
            SetBuffer(env, bufferBytes);
        }
        catch
        {
            if (_consumer != IntPtr.Zero) Close(env, 0);
            JavaRuntime.FreeSinkHandle(_sinkHandle);
            throw;
        }
    }

    public IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    public bool PrefetchEnabled { get; }

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer is already polling.");
        _box.Sink = sink;
        using (var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-consumer-start"))
            thread.Env.CallVoid(_consumer, _runtime.ConsumerStart, []);
        _thread = new Thread(() => Poll(sink)) { IsBackground = true, Name = "kafkaperf-java-poll" };
        _thread.Start();
    }

    public void StopPolling()
    {
        _stop = true;
        if (_thread is null || !_thread.IsAlive)
        {
            _thread?.Join();
            return;
        }
        // The poll thread may be in a poll of up to 100 ms: woken, it returns with nothing and sees the stop at once.
        using (var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-consumer-stop"))
        {
            try
            {
                thread.Env.CallVoid(_consumer, _runtime.ConsumerWakeup, []);
            }
            catch (JavaException)
            {
                // The poll then runs out by itself.
            }
        }
        _thread.Join();
    }

    /// <summary>The consumer's own fetch latency and lag, read by the interval sampler on its thread (two calls into Java,
    /// taken back from <c>jni.calls</c>); nothing once the consumer is closed.</summary>
    public ClientBreakdown ReadBreakdown()
    {
        lock (_statsLock)
        {
            if (_disposed || _consumer == IntPtr.Zero) return default;
            var m = _runtime.ReadMetrics(_consumer, _runtime.StatsConsumerMetric, 2);
            return new ClientBreakdown(null, null, null, null, null, FetchMs: m[0], Lag: m[1]);
        }
    }

    /// <summary>Stops polling and closes as an application does: commits, leaves the group (a static member does not) and
    /// waits for the broker up to the stall timeout.</summary>
    public void Leave() => End(_closeTimeoutMs, abandon: false);

    /// <summary>Stops polling and closes without leaving the group or committing (KIP-1092's REMAIN_IN_GROUP), waiting for
    /// nothing, as a process that died.</summary>
    public void Crash() => End(0, abandon: true);

    public void Dispose()
    {
        // A classic group's leave and last commit are sent, not waited for: waiting would also wait behind the fetch the
        // broker holds back after the last poll found nothing (up to fetch.max.wait.ms: 0.4 s of every run), and the run's
        // group is its own, never joined again. A share group's acknowledgements are waited for, up to the stall timeout.
        // After a stall or a cancellation nothing is waited for: the broker may be gone.
        End(_cancellation.IsCancellationRequested || !_share ? 0 : _closeTimeoutMs, abandon: false);
    }

    private void End(long timeoutMs, bool abandon)
    {
        lock (_statsLock)
        {
            if (_disposed) return;
            _disposed = true;
        }
        StopPolling();
        bool closed;
        using (var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-consumer-close"))
            closed = Close(thread.Env, timeoutMs, abandon);
        // Java may still call back after a failed close: then the handle stays (a small leak, not a use after free).
        if (closed) JavaRuntime.FreeSinkHandle(_sinkHandle);
    }

    private bool Close(JniEnv env, long timeoutMs, bool abandon = false)
    {
        bool closed = false;
        try
        {
            // Stops the prefetch thread and leaves the group at once, so the broker does not wait for a session timeout;
            // after a stall or a cancellation it waits for no broker. Abandoned, it does not leave.
            if (abandon) env.CallVoid(_consumer, _runtime.ConsumerAbandon, []);
            else env.CallVoid(_consumer, _runtime.ConsumerClose, [JValue.Of(timeoutMs)]);
            closed = true;
        }
        catch (JavaException)
        {
            // The broker may be gone already; the references are released below either way.
        }
        env.DeleteGlobalRef(_consumer);
        env.DeleteGlobalRef(_bufferRef);
        _bufferRef = IntPtr.Zero;
        if (_buffer is not null) NativeMemory.Free(_buffer);
        _buffer = null;
        return closed;
    }

    private void Poll(IRecordSink sink)
    {
        using var thread = _runtime.Host.AttachCurrentThread("kafkaperf-java-poll");
        var env = thread.Env;
        try
        {
            if (_records)
            {
                PollRecords(env, sink);
                return;
            }
            while (!_stop)
            {
                int count = env.CallInt(_consumer, _runtime.ConsumerPoll, [JValue.Of(PollTimeoutMs)]);
                if (count < 0)
                {
                    // One record is larger than the buffer: a larger one, and the same record again.
                    SetBuffer(env, Math.Max(-count, _capacity * 2));
                    continue;
                }
                Deliver(sink, count);
            }
        }
        catch (Exception ex)
        {
            // Nothing may escape this thread: an unhandled exception would end the process.
            try
            {
                sink.OnError(ex is JavaException ? ex.Message : $"{ex.GetType().Name}: {ex.Message}");
            }
            catch (Exception)
            {
                // The sink failed too; the scenario ends on its stall timeout.
            }
        }
    }

    /// <summary>The bridge's loop: per poll <c>pollRecords</c> and <c>iterator</c>; per record <c>hasNext</c>, <c>next</c>,
    /// <c>key</c>, <c>value</c>, <c>partition</c> and <c>offset</c> (six calls into Java), then the arrays' bytes copied
    /// out.</summary>
    private void PollRecords(JniEnv env, IRecordSink sink)
    {
        var bridge = _runtime.Bridge;
        var value = new byte[4096];
        Span<byte> key = stackalloc byte[sizeof(long)];
        while (!_stop)
        {
            var records = env.CallObject(_consumer, bridge.PollRecords, [JValue.Of(PollTimeoutMs)]);
            var iterator = env.CallObject(records, bridge.Iterator, []);
            try
            {
                while (!_stop && env.CallBoolean(iterator, bridge.HasNext, []))
                {
                    var record = env.CallObject(iterator, bridge.Next, []);
                    var keyArray = env.CallObject(record, bridge.Key, []);
                    var valueArray = env.CallObject(record, bridge.Value, []);
                    int partition = env.CallInt(record, bridge.Partition, []);
                    long offset = env.CallLong(record, bridge.Offset, []);
                    long k = -1;
                    if (keyArray != IntPtr.Zero && env.GetArrayLength(keyArray) == sizeof(long))
                    {
                        env.GetByteArrayRegion(keyArray, key);
                        k = BinaryPrimitives.ReadInt64BigEndian(key);
                    }
                    int length = valueArray == IntPtr.Zero ? 0 : env.GetArrayLength(valueArray);
                    if (length > value.Length) value = new byte[Math.Max(length, value.Length * 2)];
                    if (length > 0) env.GetByteArrayRegion(valueArray, value.AsSpan(0, length));
                    env.DeleteLocalRef(valueArray);
                    env.DeleteLocalRef(keyArray);
                    env.DeleteLocalRef(record);
                    sink.OnRecord(k, value.AsSpan(0, length));
                    sink.OnRecordPosition(partition, offset);
                }
            }
            finally
            {
                env.DeleteLocalRef(iterator);
                env.DeleteLocalRef(records);
            }
        }
    }

    private void Deliver(IRecordSink sink, int count)
    {
        byte* p = _buffer;
        for (int i = 0; i < count; i++)
        {
            // Key (big-endian, as on the wire), partition, offset, value length (little-endian), value.
            long key = BinaryPrimitives.ReadInt64BigEndian(new ReadOnlySpan<byte>(p, sizeof(long)));
            int partition = BinaryPrimitives.ReadInt32LittleEndian(new ReadOnlySpan<byte>(p + sizeof(long), sizeof(int)));
            long offset = BinaryPrimitives.ReadInt64LittleEndian(new ReadOnlySpan<byte>(p + sizeof(long) + sizeof(int), sizeof(long)));
            int length = BinaryPrimitives.ReadInt32LittleEndian(new ReadOnlySpan<byte>(p + sizeof(long) + sizeof(int) + sizeof(long), sizeof(int)));
            p += RecordHeaderBytes;
            int size = Math.Max(length, 0);
            sink.OnRecord(key, new ReadOnlySpan<byte>(p, size));
            sink.OnRecordPosition(partition, offset);
            p += size;
        }
    }

    private void SetBuffer(JniEnv env, int capacity)
    {
        var old = _bufferRef;
        var oldBuffer = _buffer;
        _buffer = (byte*)NativeMemory.Alloc((nuint)capacity);
        _capacity = capacity;
        var local = env.NewDirectByteBuffer(_buffer, capacity);
        _bufferRef = env.NewGlobalRef(local);
        env.DeleteLocalRef(local);
        env.CallVoid(_consumer, _runtime.ConsumerSetBuffer, [JValue.Ref(_bufferRef)]);
        env.DeleteGlobalRef(old);
        if (oldBuffer is not null) NativeMemory.Free(oldBuffer);
    }

    /// <summary>What Java's assignment callback reaches: set before polling starts.</summary>
    private sealed class SinkBox : IRecordSink
    {
        public IRecordSink? Sink { get; set; }

        public void OnAssigned() => Sink?.OnAssigned();

        public void OnRecord(long key, ReadOnlySpan<byte> value) => Sink?.OnRecord(key, value);

        public void OnRecordPosition(int partition, long offset) => Sink?.OnRecordPosition(partition, offset);

        public void OnPartitionsAssigned(IReadOnlyList<int> partitions) => Sink?.OnPartitionsAssigned(partitions);

        public void OnPartitionsRevoked(IReadOnlyList<int> partitions, bool lost) => Sink?.OnPartitionsRevoked(partitions, lost);

        public void OnError(string reason) => Sink?.OnError(reason);
    }
}
