namespace KafkaPerf.Clients.InMemory;

/// <summary>
/// A single-producer, single-consumer queue of records kept in fixed-size segments. Read segments are recycled,
/// so a roundtrip of any length runs in bounded memory and a send allocates nothing in steady state.
/// </summary>
/// <remarks>One producer thread and one consumer thread at a time; a topic is read once, from the start.</remarks>
internal sealed class InMemoryTopic
{
    internal const int SegmentLength = 16 * 1024;

    private readonly int _maxQueued;
    private readonly SegmentPool _pool;
    private Segment _writeSegment;
    private int _writeIndex;
    private Segment _readSegment;
    private int _readIndex;
    private long _published;
    private long _consumed;
    private volatile bool _consumerAttached;

    public InMemoryTopic(int maxQueued, SegmentPool pool)
    {
        _maxQueued = maxQueued;
        _pool = pool;
        _writeSegment = pool.Rent();
        _readSegment = _writeSegment;
    }

    public void AttachConsumer() => _consumerAttached = true;

    public void DetachConsumer() => _consumerAttached = false;

    /// <summary>Appends a record (producer thread). Waits while a consumer is attached and the queue is full.</summary>
    public void Append(long key, ReadOnlyMemory<byte> value)
    {
        if (_consumerAttached && _published - Volatile.Read(ref _consumed) >= _maxQueued)
            WaitForRoom();

        if (_writeIndex == SegmentLength)
        {
            var next = _pool.Rent();
            _writeSegment.Next = next;
            _writeSegment = next;
            _writeIndex = 0;
        }

        _writeSegment.Keys[_writeIndex] = key;
        _writeSegment.Values[_writeIndex] = value;
        _writeIndex++;
        // Publishing the count after the slot is written makes the slot visible to the consumer.
        Volatile.Write(ref _published, _published + 1);
    }

    /// <summary>Hands every published, unread record to <paramref name="sink"/> (consumer thread).</summary>
    /// <returns>How many records were handed over.</returns>
    public int Drain(IRecordSink sink)
    {
        long available = Volatile.Read(ref _published);
        long position = _consumed;
        int handed = 0;
        while (position < available)
        {
            if (_readIndex == SegmentLength)
            {
                var done = _readSegment;
                _readSegment = done.Next!;
                _readIndex = 0;
                _pool.Return(done);
            }

            sink.OnRecord(_readSegment.Keys[_readIndex], _readSegment.Values[_readIndex].Span);
            _readIndex++;
            position++;
            handed++;
        }
        Volatile.Write(ref _consumed, position);
        return handed;
    }

    /// <summary>Returns every segment to the pool (the topic was deleted; no producer or consumer is active).</summary>
    public void Release()
    {
        for (var segment = _readSegment; segment is not null;)
        {
            var next = segment.Next;
            _pool.Return(segment);
            segment = next;
        }
    }

    private void WaitForRoom()
    {
        var spinner = new SpinWait();
        while (_consumerAttached && _published - Volatile.Read(ref _consumed) >= _maxQueued)
            spinner.SpinOnce(sleep1Threshold: -1);
    }

    internal sealed class Segment
    {
        public readonly long[] Keys = new long[SegmentLength];
        public readonly ReadOnlyMemory<byte>[] Values = new ReadOnlyMemory<byte>[SegmentLength];
        public Segment? Next;
    }
}
