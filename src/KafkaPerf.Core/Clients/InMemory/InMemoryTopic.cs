namespace KafkaPerf.Clients.InMemory;

/// <summary>
/// A single-producer, single-consumer queue of records kept in fixed-size segments of <em>runs</em>: records whose keys
/// follow one another (k, k+1, …) with the same payload share one entry. Every scenario sends ordinal keys with one
/// payload, so a topic of 10 000 000 records takes the memory of one run; keys out of order (several producers) take an
/// entry each, and read segments are recycled, so a roundtrip of any length runs in bounded memory too. A send allocates
/// nothing in steady state. A record's offset is its position in the queue.
/// </summary>
/// <remarks>One producer thread and one consumer thread at a time; a topic is read once, from the start. The producer
/// only ever extends the newest run, and writes a run's count before publishing the record count: a consumer that has
/// not reached the published count finds the next record either further in its current run or in the next one.</remarks>
internal sealed class InMemoryTopic
{
    internal const int SegmentLength = 16 * 1024;

    private readonly int _maxQueued;
    private readonly SegmentPool _pool;
    private Segment _writeSegment;
    private int _writeIndex;
    private Segment _readSegment;
    private int _readIndex;
    private long _readOffset;
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
    /// <returns>The record's offset: its position in the queue, from 0.</returns>
    public long Append(long key, ReadOnlyMemory<byte> value)
    {
        if (_consumerAttached && _published - Volatile.Read(ref _consumed) >= _maxQueued)
            WaitForRoom();

        int last = _writeIndex - 1;
        if (last >= 0 && _writeSegment.Values[last].Equals(value)
            && _writeSegment.FirstKeys[last] + _writeSegment.Counts[last] == key)
        {
            // The next key of the newest run: one more record, no new entry.
            Volatile.Write(ref _writeSegment.Counts[last], _writeSegment.Counts[last] + 1);
        }
        else
        {
            if (_writeIndex == SegmentLength)
            {
                var next = _pool.Rent();
                _writeSegment.Next = next;
                _writeSegment = next;
                _writeIndex = 0;
            }
            _writeSegment.FirstKeys[_writeIndex] = key;
            _writeSegment.Values[_writeIndex] = value;
            Volatile.Write(ref _writeSegment.Counts[_writeIndex], 1);
            _writeIndex++;
        }
        // Publishing the count after the run is written makes the record visible to the consumer.
        long offset = _published;
        Volatile.Write(ref _published, offset + 1);
        return offset;
    }

    /// <summary>Hands every published, unread record to <paramref name="sink"/> (consumer thread), each with its position
    /// as its offset in <paramref name="partition"/>.</summary>
    /// <returns>How many records were handed over.</returns>
    public int Drain(IRecordSink sink, int partition)
    {
        long available = Volatile.Read(ref _published);
        long position = _consumed;
        int handed = 0;
        while (position < available)
        {
            // Read after the published count: if the next record belongs to this run, its count already shows it.
            if (_readOffset == Volatile.Read(ref _readSegment.Counts[_readIndex]))
            {
                _readIndex++;
                _readOffset = 0;
                if (_readIndex == SegmentLength)
                {
                    var done = _readSegment;
                    _readSegment = done.Next!;
                    _readIndex = 0;
                    _pool.Return(done);
                }
            }

            sink.OnRecord(_readSegment.FirstKeys[_readIndex] + _readOffset, _readSegment.Values[_readIndex].Span);
            sink.OnRecordPosition(partition, position);
            _readOffset++;
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
        public readonly long[] FirstKeys = new long[SegmentLength];
        public readonly long[] Counts = new long[SegmentLength];
        public readonly ReadOnlyMemory<byte>[] Values = new ReadOnlyMemory<byte>[SegmentLength];
        public Segment? Next;
    }
}
