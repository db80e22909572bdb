using KafkaPerf.Measurement;

namespace KafkaPerf.Core.Tests.Measurement;

public class DeliveryProofTests
{
    [Fact]
    public void Judge_NothingMissing_IsCompleteWhereverTheReadStopped()
    {
        var acknowledged = Acknowledged((0, 0, 99));

        var outcome = DeliveryProof.Judge(0, acknowledged, new ReadPositions(1), readSeconds: 1);

        Assert.Equal(ReadOutcome.Complete, outcome);
        Assert.True(outcome.Verified);
    }

    [Fact]
    public void Judge_EveryPartitionReadPastItsLastAcknowledgedOffset_TheMissingRecordsAreProvenLost()
    {
        var acknowledged = Acknowledged((0, 0, 99), (1, 0, 49));
        var read = new ReadPositions(2);
        read.Read(0, 99);
        read.Read(1, 49);

        Assert.True(DeliveryProof.ReadToTheEnd(acknowledged, read));
        Assert.Equal(new ReadOutcome(3, 0, null), DeliveryProof.Judge(3, acknowledged, read, readSeconds: 2));
    }

    [Fact]
    public void Judge_APartitionReadShort_NotVerifiedSayingWhereNeverLost()
    {
        var acknowledged = Acknowledged((0, 0, 2_749), (1, 0, 10));
        var read = new ReadPositions(2);
        read.Read(0, 1_199);
        read.Read(1, 10);

        var outcome = DeliveryProof.Judge(1_550, acknowledged, read, readSeconds: 20, stoppedBecause: "nothing new for 20 s");

        Assert.False(DeliveryProof.ReadToTheEnd(acknowledged, read));
        Assert.Equal(0, outcome.Lost);
        Assert.Equal(1_550, outcome.NotVerified);
        Assert.Equal("1550 acknowledged records not read: nothing new for 20 s; read to offset 1200 of 2749 on partition 0 in 20 s", outcome.Reason);
        Assert.False(outcome.Verified);
    }

    [Fact]
    public void Judge_RecordsAcknowledgedWithoutAnOffset_CanNeverBeProvenLost()
    {
        var acknowledged = new AcknowledgedOffsets(1, 10);
        for (long id = 0; id < 10; id++) acknowledged.AddWithoutOffset(id);
        var read = new ReadPositions(1);
        read.Read(0, 500);

        var outcome = DeliveryProof.Judge(2, acknowledged, read, readSeconds: 1);

        Assert.False(DeliveryProof.ReadToTheEnd(acknowledged, read));
        Assert.Equal((0, 2), (outcome.Lost, outcome.NotVerified));
        Assert.Contains("10 records were acknowledged without an offset", outcome.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void AcknowledgedOffsets_RecordsThatMustNeverArrive_NeitherCountNorRaiseTheEnd()
    {
        // Ids 5..9 were an aborted transaction: acknowledged, and never read by a reader of committed records.
        var acknowledged = new AcknowledgedOffsets(1, 10, excluded: id => id >= 5);
        for (long id = 0; id < 10; id++) acknowledged.Add(id, 0, id);

        Assert.Equal(5, acknowledged.Keys.Distinct);
        Assert.Equal(5, acknowledged.EndOf(0));
    }

    [Fact]
    public void ReadPositions_ASharedGroupsRecordsOutOfOrder_CountAsReadOnlyUpToTheFirstGap()
    {
        var read = new ReadPositions(1, ordered: false);
        foreach (long offset in new long[] { 0, 1, 3, 4, 200 }) read.Read(0, offset);

        Assert.Equal(2, read.PositionOf(0));
        read.Read(0, 2);
        Assert.Equal(5, read.PositionOf(0));
    }

    [Fact]
    public void ReadPositions_AClassicGroupsReread_NeverMovesThePositionBack()
    {
        var read = new ReadPositions(1);
        read.Read(0, 100);
        read.Read(0, 60);

        Assert.Equal(101, read.PositionOf(0));
        Assert.Equal(101, read.Total);
    }

    [Fact]
    public void KeyVerifier_CountMissing_CountsOnlyAcknowledgedIdsNotSeen()
    {
        var acknowledged = new ConcurrentKeyVerifier(200);
        for (long id = 0; id < 150; id++) acknowledged.Observe(id, out _);
        var seen = new KeyVerifier(200);
        for (long id = 0; id < 200; id += 2) seen.Observe(id);

        // Ids 1, 3 … 149 were acknowledged and not seen; 151 … 199 were never acknowledged.
        Assert.Equal(75, seen.CountMissing(acknowledged));
    }

    private static AcknowledgedOffsets Acknowledged(params (int Partition, long First, long Last)[] ranges)
    {
        long records = ranges.Sum(r => r.Last - r.First + 1);
        var acknowledged = new AcknowledgedOffsets(ranges.Length, records);
        long id = 0;
        foreach (var (partition, first, last) in ranges)
        {
            for (long offset = first; offset <= last; offset++) acknowledged.Add(id++, partition, offset);
        }
        return acknowledged;
    }
}
