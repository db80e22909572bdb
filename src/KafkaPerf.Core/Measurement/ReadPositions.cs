namespace KafkaPerf.Measurement;

/// <summary>
/// How far the reads of a topic went, per partition: the offset below which every record the consumers were given has
/// been handed to the run. Consumers of a classic group read a partition in order, so the position is one past the
/// highest offset seen; a share group's members are given records out of order, so there it is one past the longest run
/// of offsets from 0 that were all seen.
/// </summary>
/// <remarks>Any number of writers (poll threads). The classic path is lock-free and allocation-free; the share path takes
/// a lock per partition and grows a bit set as offsets rise (a share consumer's own cost per record is far larger).</remarks>
public sealed class ReadPositions
{
    private readonly long[] _positions;
    private readonly SeenOffsets[]? _unordered;
    private long _unknown;

    /// <summary>Creates the positions of a topic's partitions.</summary>
    /// <param name="partitions">The topic's partition count (at least 64 are covered).</param>
    /// <param name="ordered"><see langword="true"/> when each partition is read in offset order (a classic group);
    /// <see langword="false"/> for a share group.</param>
    public ReadPositions(int partitions, bool ordered = true)
    {
        _positions = new long[Math.Max(AcknowledgedOffsets.MinimumPartitions, partitions)];
        if (!ordered) _unordered = [.. Enumerable.Range(0, _positions.Length).Select(_ => new SeenOffsets())];
    }

    /// <summary>Records read at a partition this reading does not cover, or with a negative offset.</summary>
    public long Unknown => Volatile.Read(ref _unknown);

    /// <summary>Notes that the record at <paramref name="offset"/> of <paramref name="partition"/> was handed to the run.</summary>
    /// <param name="partition">The partition.</param>
    /// <param name="offset">The record's offset.</param>
    public void Read(int partition, long offset)
    {
        if (offset < 0 || (uint)partition >= (uint)_positions.Length)
        {
            Interlocked.Increment(ref _unknown);
            return;
        }
        if (_unordered is not null)
        {
            long contiguous = _unordered[partition].Add(offset);
            AtomicMax.Raise(ref _positions[partition], contiguous);
            return;
        }
        AtomicMax.Raise(ref _positions[partition], offset + 1);
    }

    /// <summary>The offset below which the partition has been read.</summary>
    /// <param name="partition">The partition.</param>
    /// <returns>The position; 0 when nothing was read.</returns>
    public long PositionOf(int partition) => (uint)partition < (uint)_positions.Length ? Volatile.Read(ref _positions[partition]) : 0;

    /// <summary>The sum of the positions: grows whenever a read goes further (a stall watch's progress).</summary>
    public long Total
    {
        get
        {
            long sum = 0;
            for (int i = 0; i < _positions.Length; i++) sum += Volatile.Read(ref _positions[i]);
            return sum;
        }
    }

    /// <summary>The offsets seen of one partition read out of order, and how far they run without a gap from 0.</summary>
    private sealed class SeenOffsets
    {
        private readonly Lock _lock = new();
        private ulong[] _bits = new ulong[64];
        private long _contiguous;

        public long Add(long offset)
        {
            lock (_lock)
            {
                long word = offset >> 6;
                if (word >= _bits.Length)
                {
                    long length = _bits.Length;
                    while (length <= word) length *= 2;
                    Array.Resize(ref _bits, checked((int)length));
                }
                _bits[word] |= 1UL << (int)(offset & 63);
                while ((_contiguous >> 6) < _bits.Length && (_bits[_contiguous >> 6] & (1UL << (int)(_contiguous & 63))) != 0) _contiguous++;
                return _contiguous;
            }
        }
    }
}
