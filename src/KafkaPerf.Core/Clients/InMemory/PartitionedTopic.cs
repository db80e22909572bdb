namespace KafkaPerf.Clients.InMemory;

/// <summary>
/// An in-memory topic of one or more partitions, each an <see cref="InMemoryTopic"/> queue: producers write record k to
/// partition (k / 64) mod P, so runs of consecutive keys stay in one partition and keep one entry each; the consumers of
/// a group share the partitions as Kafka's do (member i of n reads partitions i, i + n, …).
/// </summary>
/// <remarks>Each partition queue has one writer and one reader at a time: appends take the partition's append lock once
/// more than one producer writes to the topic, and drains take its drain lock (a group's assignment may change while a
/// member drains, when a new member joins). Two locks, because a full queue makes an append wait for a drain. One
/// producer, the common case, appends without a lock.</remarks>
internal sealed class PartitionedTopic
{
    private const int KeysPerBlock = 64;
    private readonly InMemoryTopic[] _partitions;
    private readonly Lock[] _appendLocks;
    private readonly Lock[] _drainLocks;
    private int _producers;
    private int _members;
    private int _attached;

    public PartitionedTopic(int partitions, int maxQueued, SegmentPool pool)
    {
        _partitions = [.. Enumerable.Range(0, Math.Max(1, partitions)).Select(_ => new InMemoryTopic(maxQueued, pool))];
        _appendLocks = [.. _partitions.Select(_ => new Lock())];
        _drainLocks = [.. _partitions.Select(_ => new Lock())];
    }

    public int PartitionCount => _partitions.Length;

    /// <summary>A producer starts writing; from the second one on, appends take the partition's lock.</summary>
    public void AddProducer() => Interlocked.Increment(ref _producers);

    /// <summary>Appends a record to its partition.</summary>
    /// <returns>The partition and the record's offset there.</returns>
    public (int Partition, long Offset) Append(long key, ReadOnlyMemory<byte> value)
    {
        int index = _partitions.Length == 1 ? 0 : (int)((ulong)(key / KeysPerBlock) % (ulong)_partitions.Length);
        if (Volatile.Read(ref _producers) <= 1) return (index, _partitions[index].Append(key, value));
        lock (_appendLocks[index]) return (index, _partitions[index].Append(key, value));
    }

    /// <summary>A consumer joins the (single) group.</summary>
    /// <returns>Its member index.</returns>
    public int Join()
    {
        if (Interlocked.Increment(ref _attached) == 1)
        {
            foreach (var partition in _partitions) partition.AttachConsumer();
        }
        return Interlocked.Increment(ref _members) - 1;
    }

    /// <summary>A consumer leaves; when none is left, producers no longer wait for room.</summary>
    public void Leave()
    {
        if (Interlocked.Decrement(ref _attached) == 0)
        {
            foreach (var partition in _partitions) partition.DetachConsumer();
        }
    }

    /// <summary>Hands every unread record of a member's partitions to its sink.</summary>
    /// <returns>How many records were handed over.</returns>
    public int Drain(int member, IRecordSink sink)
    {
        int members = Math.Max(1, Volatile.Read(ref _members));
        int handed = 0;
        for (int index = member % members; index < _partitions.Length; index += members)
        {
            lock (_drainLocks[index]) handed += _partitions[index].Drain(sink, index);
        }
        return handed;
    }

    /// <summary>Returns every segment to the pool (the topic was deleted).</summary>
    public void Release()
    {
        foreach (var partition in _partitions) partition.Release();
    }
}
