namespace KafkaPerf.Measurement;

/// <summary>
/// How far each partition's acknowledged records reach: per partition, one past the highest offset at which the broker
/// acknowledged a record that a reader must see. A read that went past it without seeing a record proves that record
/// lost; a read that stopped short of it proves nothing (<see cref="DeliveryProof"/>).
/// </summary>
/// <remarks>Any number of writers (delivery threads), lock-free and allocation-free; a reading is exact once they have
/// stopped. Records of aborted transactions are not added: a reader of committed records never sees them.</remarks>
public sealed class AcknowledgedOffsets
{
    /// <summary>Partitions covered whatever the count given: a caller that gives none still gets proofs.</summary>
    internal const int MinimumPartitions = 64;

    private readonly long[] _ends;
    private readonly Func<long, bool>? _excluded;
    private long _withoutOffset;

    /// <summary>Creates the ledger of a topic's partitions and of the records 0..<paramref name="records"/>-1 sent to it.</summary>
    /// <param name="partitions">The topic's partition count (at least 64 are covered); an acknowledgement on a partition
    /// beyond counts as one without an offset.</param>
    /// <param name="records">The ids sent (0..records-1), each acknowledged at most once.</param>
    /// <param name="excluded">Ids that a reader must never see (records of aborted transactions): not added.</param>
    public AcknowledgedOffsets(int partitions, long records, Func<long, bool>? excluded = null)
    {
        _ends = new long[Math.Max(MinimumPartitions, partitions)];
        _excluded = excluded;
        Keys = new ConcurrentKeyVerifier(records);
    }

    /// <summary>The partitions this ledger covers.</summary>
    public int Partitions => _ends.Length;

    /// <summary>The ids acknowledged (and not excluded): a read must see each of them.</summary>
    public ConcurrentKeyVerifier Keys { get; }

    /// <summary>Acknowledgements that came without a usable offset (<c>acks=0</c>, a client that reports none): a record
    /// of theirs that never arrives can only be <em>not verified</em>.</summary>
    public long WithoutOffset => Volatile.Read(ref _withoutOffset);

    /// <summary>Notes an acknowledgement.</summary>
    /// <param name="id">The record's id.</param>
    /// <param name="partition">The record's partition.</param>
    /// <param name="offset">Its offset; negative when unknown.</param>
    public void Add(long id, int partition, long offset)
    {
        if (_excluded is not null && _excluded(id)) return;
        Keys.Observe(id, out _);
        if (offset < 0 || (uint)partition >= (uint)_ends.Length)
        {
            Interlocked.Increment(ref _withoutOffset);
            return;
        }
        AtomicMax.Raise(ref _ends[partition], offset + 1);
    }

    /// <summary>Notes an acknowledgement that carried no offset.</summary>
    /// <param name="id">The record's id.</param>
    public void AddWithoutOffset(long id)
    {
        if (_excluded is not null && _excluded(id)) return;
        Keys.Observe(id, out _);
        Interlocked.Increment(ref _withoutOffset);
    }

    /// <summary>One past the highest acknowledged offset of a partition; 0 when none was acknowledged there.</summary>
    /// <param name="partition">The partition.</param>
    /// <returns>The end a read of it must reach.</returns>
    public long EndOf(int partition) => (uint)partition < (uint)_ends.Length ? Volatile.Read(ref _ends[partition]) : 0;
}
