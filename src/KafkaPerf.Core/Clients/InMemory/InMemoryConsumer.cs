namespace KafkaPerf.Clients.InMemory;

/// <param name="topic">The topic.</param>
/// <param name="config">What it reports as its configuration.</param>
/// <param name="idInValue">Whether records carry their id in their values' first bytes: the topic keeps one value for
/// every record (a reference), so each is handed over with its id written in, as a broker would have stored it.</param>
/// <param name="firstRecordDelay">How long to wait after the assignment before the first read
/// (<see cref="InMemoryClientOptions.FirstRecordDelay"/>).</param>
internal sealed class InMemoryConsumer(PartitionedTopic topic, IReadOnlyDictionary<string, string> config, bool idInValue = false,
    TimeSpan firstRecordDelay = default) : IBenchConsumer
{
    private Thread? _thread;
    private volatile bool _stopping;
    private int _member = -1;

    public IReadOnlyDictionary<string, string> EffectiveConfig => config;

    public bool PrefetchEnabled => false;

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer was already started.");
        _member = topic.Join();
        IRecordSink target = idInValue ? new StampingSink(sink) : sink;
        _thread = new Thread(() => Poll(target)) { IsBackground = true, Name = "kafkaperf-inmemory-poll" };
        _thread.Start();
    }

    public void StopPolling()
    {
        _stopping = true;
        _thread?.Join();
        if (_member >= 0) topic.Leave();
        _member = -1;
    }

    public void Dispose() => StopPolling();

    private void Poll(IRecordSink sink)
    {
        sink.OnAssigned();
        // A fixed wait before the first read, in short sleeps so that a stop does not wait for all of it.
        long readFrom = System.Diagnostics.Stopwatch.GetTimestamp();
        while (!_stopping && System.Diagnostics.Stopwatch.GetElapsedTime(readFrom) < firstRecordDelay) Thread.Sleep(1);
        var spinner = new SpinWait();
        while (!_stopping)
        {
            if (topic.Drain(_member, sink) > 0)
                spinner.Reset();
            else
                spinner.SpinOnce(sleep1Threshold: -1);
        }
    }

    private sealed class StampingSink(IRecordSink inner) : IRecordSink
    {
        private byte[] _value = [];

        public void OnAssigned() => inner.OnAssigned();

        public void OnRecord(long key, ReadOnlySpan<byte> value)
        {
            if (_value.Length != value.Length) _value = new byte[value.Length];
            value.CopyTo(_value);
            if (_value.Length >= RecordKeys.IdBytes) System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(_value, key);
            inner.OnRecord(key, _value);
        }

        public void OnRecordPosition(int partition, long offset) => inner.OnRecordPosition(partition, offset);

        public void OnError(string reason) => inner.OnError(reason);
    }
}
