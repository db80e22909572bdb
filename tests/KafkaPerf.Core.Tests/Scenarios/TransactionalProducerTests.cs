using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Scenarios;

/// <summary>Transactions cut around a producer: begun at a transaction's first record, committed after its last,
/// aborted (after a flush) where the plan says, the open one ended by a flush; and the consumer's verifier that knows
/// which records must never arrive.</summary>
public class TransactionalProducerTests
{
    [Fact]
    public void Send_250RecordsIn100s_ThreeTransactionsEndedAsThePlanSays()
    {
        var inner = new Calls();
        var recorder = new TransactionRecorder();
        const double Ratio = 0.5;
        var producer = new TransactionalProducer(inner, 100, Ratio, StopwatchClock.Instance, recorder, CancellationToken.None);

        for (long id = 0; id < 250; id++) producer.Send(id, new byte[8]);
        producer.Flush(CancellationToken.None);

        var ends = Enumerable.Range(0, 3).Select(k => TransactionPlan.IsAborted(k, Ratio) ? "flush abort" : "commit").ToList();
        Assert.Equal($"begin 100×send {ends[0]} begin 100×send {ends[1]} begin 50×send {ends[2]} flush", inner.Log);
        var t = recorder.Snapshot()!;
        Assert.Equal(3, t.Committed + t.Aborted);
        Assert.Equal(ends.Count(e => e != "commit"), t.Aborted);
    }

    [Fact]
    public void Flush_NothingSentSinceTheLastCommit_NoEmptyTransaction()
    {
        var inner = new Calls();
        var producer = new TransactionalProducer(inner, 10, 0, StopwatchClock.Instance, null, CancellationToken.None);

        for (long id = 0; id < 10; id++) producer.Send(id, new byte[8]);
        producer.Flush(CancellationToken.None);

        Assert.Equal("begin 10×send commit flush", inner.Log);
    }

    [Fact]
    public void TransactionPlan_AbortsAboutTheRatio_AndCountsTheRecords()
    {
        int aborted = Enumerable.Range(0, 10_000).Count(k => TransactionPlan.IsAborted(k, 0.1));

        Assert.InRange(aborted, 900, 1_100);
        Assert.False(TransactionPlan.IsAborted(5, 0));
        long records = TransactionPlan.AbortedRecords(1_050, 100, 0.1);
        Assert.Equal(Enumerable.Range(0, 1_050).Count(id => TransactionPlan.IsAbortedRecord(id, 100, 0.1)), records);
    }

    [Fact]
    public void KeyVerifier_ExcludedKeys_NotExpectedAndCaughtWhenTheyArrive()
    {
        var verifier = new KeyVerifier(10, key => key is 3 or 4, 2);

        foreach (long key in new long[] { 0, 1, 2, 5, 6, 7, 8, 9 }) verifier.Observe(key);
        Assert.True(verifier.IsComplete);
        Assert.Equal(0, verifier.Lost);
        verifier.Observe(4);
        Assert.Equal(1, verifier.Excluded);
        Assert.Equal(1, verifier.Unexpected);
    }

    /// <summary>Writes down what the wrapper asked of the producer, runs of sends counted.</summary>
    private sealed class Calls : IBenchProducer
    {
        private readonly List<string> _log = [];
        private int _sends;

        public string Log
        {
            get
            {
                EndSends();
                return string.Join(' ', _log);
            }
        }

        public IReadOnlyDictionary<string, string> EffectiveConfig { get; } = new Dictionary<string, string>();

        public void Send(long key, ReadOnlyMemory<byte> value) => _sends++;

        public void BeginTransaction() => Add("begin");

        public void CommitTransaction(CancellationToken cancellationToken) => Add("commit");

        public void AbortTransaction(CancellationToken cancellationToken) => Add("abort");

        public void Flush(CancellationToken cancellationToken) => Add("flush");

        public void Dispose()
        {
        }

        private void Add(string call)
        {
            EndSends();
            _log.Add(call);
        }

        private void EndSends()
        {
            if (_sends > 0) _log.Add($"{_sends}×send");
            _sends = 0;
        }
    }
}
