namespace KafkaPerf.Scenarios;

/// <summary>
/// The send times of a burst roundtrip's records in one bit per record: the clock is noted before the first record of
/// every block of <see cref="BlockSize"/> ids, and a record's send time is interpolated between the marks of its block
/// and the next. A burst sends its ids in order from one thread, so a record's true send time lies between those two
/// marks: the time is exact for the first record of each block, and otherwise off by less than the time the block took
/// to send (64 records: 6 µs at 10 million msg/s, 21 ms at 3 000). Until the next block has begun, the mark of the
/// record's own block is used, which makes a latency longer, never shorter. Before, every record's time was kept
/// (8 B a record: 80 MB for 10 million records, 8 GB for a billion); the marks take 1.25 MB for 10 million.
/// </summary>
/// <remarks>One thread writes (<see cref="Sending"/> for each block's first id, in order), any thread reads; the marks are
/// allocated before timing, so the send loop allocates nothing and reads the clock once a block.</remarks>
internal sealed class BurstSendTimes
{
    /// <summary>Records per mark.</summary>
    internal const int BlockSize = 64;
    private const int Shift = 6;
    private const long Mask = BlockSize - 1;
    private readonly long[] _marks;
    private readonly long _records;
    private long _marked = -1;

    /// <summary>Marks for ids 0..<paramref name="records"/>-1, and one after the last block.</summary>
    /// <param name="records">The records the burst sends.</param>
    public BurstSendTimes(long records)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(records);
        _records = records;
        _marks = new long[(records >> Shift) + 2];
    }

    /// <summary>Whether <paramref name="id"/> is the first of a block: the send loop notes the clock before it.</summary>
    /// <param name="id">A record's id.</param>
    /// <returns>Whether it starts a block.</returns>
    public static bool StartsBlock(long id) => (id & Mask) == 0;

    /// <summary>Record <paramref name="id"/>, the first of its block (<see cref="StartsBlock"/>), is about to be sent; the
    /// clock reads <paramref name="timestamp"/>.</summary>
    /// <param name="id">The record's id, in order from 0.</param>
    /// <param name="timestamp">The clock's ticks.</param>
    public void Sending(long id, long timestamp)
    {
        System.Diagnostics.Debug.Assert(StartsBlock(id), "only a block's first id is noted");
        long block = id >> Shift;
        _marks[block] = timestamp;
        Volatile.Write(ref _marked, block);
    }

    /// <summary>The last record was sent: the block after it is marked, so the last block interpolates too.</summary>
    /// <param name="timestamp">The clock's ticks after the last send.</param>
    public void Done(long timestamp)
    {
        long block = (_records + Mask) >> Shift;
        _marks[block] = timestamp;
        Volatile.Write(ref _marked, block);
    }

    /// <summary>When record <paramref name="id"/> was sent, in the clock's ticks (see the class's remarks for how
    /// close); only for a record that was sent (its block's first id was noted).</summary>
    /// <param name="id">A record's id.</param>
    /// <returns>Its send time.</returns>
    public long SentAt(long id)
    {
        long block = id >> Shift;
        long marked = Volatile.Read(ref _marked);
        long start = _marks[block];
        if (block >= marked) return start;
        long next = _marks[block + 1];
        // The last block may hold fewer records: its end mark follows its last one.
        long inBlock = Math.Min(BlockSize, _records - (block << Shift));
        return start + (next - start) * (id & Mask) / inBlock;
    }
}
