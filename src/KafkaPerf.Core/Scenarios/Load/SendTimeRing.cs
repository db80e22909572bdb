using System.Numerics;
using System.Runtime.CompilerServices;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// The actual send time of every timed record still in flight, so that the thread that sees its acknowledgement or its
/// arrival can measure service time (from the actual send) beside response time (from when it was due, which needs no
/// memory). A fixed ring, indexed by record number: memory does not grow with the length of a run.
/// </summary>
/// <remarks>Lock-free: each slot has one writer at a time (record numbers are unique), which marks the slot invalid,
/// writes the time and then publishes the record number; a reader trusts a slot only when it holds the record's number
/// before and after reading the time. A record still in flight after <see cref="Capacity"/> newer timed records were sent has lost its slot, and
/// its service time is not recorded (<see cref="Missed"/> counts them); its response time still is.</remarks>
public sealed class SendTimeRing
{
    /// <summary>The most slots a ring takes: 2^21 (32 MB), 16 s of 131 072 timed records per second.</summary>
    public const int MaxCapacity = 1 << 21;

    private readonly long[] _records;
    private readonly long[] _times;
    private readonly long _mask;
    private readonly int _shift;
    private long _missed;

    /// <summary>Creates a ring for a schedule's timed records.</summary>
    /// <param name="schedule">The schedule.</param>
    public SendTimeRing(SendSchedule schedule)
    {
        ArgumentNullException.ThrowIfNull(schedule);
        long timed = Math.Max(1, (schedule.TotalRecords >> schedule.SampleShift) + 1);
        Capacity = (int)Math.Min(MaxCapacity, BitOperations.RoundUpToPowerOf2((ulong)timed));
        _records = new long[Capacity];
        _times = new long[Capacity];
        Array.Fill(_records, -1);
        _mask = Capacity - 1;
        _shift = schedule.SampleShift;
    }

    /// <summary>Slots in the ring.</summary>
    public int Capacity { get; }

    /// <summary>Timed records whose slot had been reused before their acknowledgement or arrival.</summary>
    public long Missed => Volatile.Read(ref _missed);

    /// <summary>Notes when a timed record was sent (the sending thread).</summary>
    /// <param name="record">Its number.</param>
    /// <param name="timestamp">The clock when it was handed to the client.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Set(long record, long timestamp)
    {
        long slot = (record >> _shift) & _mask;
        Volatile.Write(ref _records[slot], -1);
        // The time must not become visible before the slot is marked invalid (stores may be reordered off x86).
        Interlocked.MemoryBarrier();
        _times[slot] = timestamp;
        Volatile.Write(ref _records[slot], record);
    }

    /// <summary>When a timed record was sent, if its slot still holds it.</summary>
    /// <param name="record">Its number.</param>
    /// <param name="timestamp">The send time.</param>
    /// <returns>Whether it was found.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGet(long record, out long timestamp)
    {
        long slot = (record >> _shift) & _mask;
        if (Volatile.Read(ref _records[slot]) == record)
        {
            timestamp = Volatile.Read(ref _times[slot]);
            if (Volatile.Read(ref _records[slot]) == record) return true;
        }
        timestamp = 0;
        Interlocked.Increment(ref _missed);
        return false;
    }
}
