using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Scenarios;

public class BurstSendTimesTests
{
    // A send loop's clock: 10 ticks a record and an uneven pause now and then, never going back.
    private static long TrueTime(long id) => 1_000 + (id * 10) + (id / 17 * 3) + (id % 5);

    [Fact]
    public void SentAt_IdsSentInOrder_ExactAtEachBlocksFirstRecordAndWithinItsBlocksSpanOtherwise()
    {
        const long Records = 1_000;
        var times = new BurstSendTimes(Records);
        for (long id = 0; id < Records; id++) if (BurstSendTimes.StartsBlock(id)) times.Sending(id, TrueTime(id));
        times.Done(TrueTime(Records));

        for (long id = 0; id < Records; id++)
        {
            long first = id / BurstSendTimes.BlockSize * BurstSendTimes.BlockSize;
            long next = Math.Min(first + BurstSendTimes.BlockSize, Records);
            if (id == first) Assert.Equal(TrueTime(id), times.SentAt(id));
            else Assert.InRange(times.SentAt(id), TrueTime(first), TrueTime(next));
            // Interpolated within the block: no further from the truth than the block's own span.
            Assert.True(Math.Abs(times.SentAt(id) - TrueTime(id)) <= TrueTime(next) - TrueTime(first), $"id {id}");
        }
    }

    [Fact]
    public void SentAt_EvenlySentRecordsAndAShortLastBlock_EveryTimeExact()
    {
        // 130 records: two whole blocks and one of 2, whose end mark follows its last record.
        var times = new BurstSendTimes(130);
        for (long id = 0; id < 130; id++) if (BurstSendTimes.StartsBlock(id)) times.Sending(id, id * 100);
        times.Done(130 * 100);

        for (long id = 0; id < 130; id++) Assert.Equal(id * 100, times.SentAt(id));
    }

    [Fact]
    public void SentAt_BeforeTheNextBlockBegins_TheBlocksOwnMarkWhichIsNeverAfterTheSend()
    {
        var times = new BurstSendTimes(1_000);
        for (long id = 0; id < 70; id++) if (BurstSendTimes.StartsBlock(id)) times.Sending(id, TrueTime(id));

        // Ids 64-69 were sent; block 1 has no end yet: its first record's time stands for each, at or before its send.
        Assert.All(Enumerable.Range(64, 6), id => Assert.Equal(TrueTime(64), times.SentAt(id)));
        // Block 0 is closed by block 1's mark and interpolates.
        Assert.InRange(times.SentAt(63), TrueTime(0), TrueTime(64));
    }

    [Fact]
    public void StartsBlock_EverySixtyFourthIdFromZero()
    {
        Assert.Equal([0L, 64, 128, 192], Enumerable.Range(0, 200).Select(i => (long)i).Where(BurstSendTimes.StartsBlock));
    }

    [Fact]
    public void New_TenMillionRecords_OneBitARecord()
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        var times = new BurstSendTimes(10_000_000);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        GC.KeepAlive(times);
        // 8 B a mark, a mark every 64 records: 1.25 MB, where a send time per record took 80 MB.
        Assert.InRange(allocated, 10_000_000 / 8, (10_000_000 / 8) + 1_024);
    }
}
