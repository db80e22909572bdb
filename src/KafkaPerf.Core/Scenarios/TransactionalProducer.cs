using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// A producer's records in transactions of <see cref="ClientSettings.TransactionRecords"/> (<c>--transactions</c>): a
/// transaction begins with its first record and ends after its last, committed - or, for the share
/// <see cref="TransactionPlan"/> picks, flushed and aborted; a flush ends the open one. Around any client with
/// <see cref="ClientCapabilities.Transactions"/>, so the scenarios send as they always do and every client's
/// transactions are cut at the same records.
/// </summary>
internal sealed class TransactionalProducer(IBenchProducer inner, int records, double abortRatio, IClock clock, TransactionRecorder? recorder,
    CancellationToken cancellation) : IBenchProducer
{
    private readonly TickConverter _ticks = new(clock.Frequency);
    private long _transaction;
    private int _inTransaction;
    private bool _open;
    private long _begun;

    public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

    public void Send(long key, ReadOnlyMemory<byte> value)
    {
        if (!_open)
        {
            _begun = clock.GetTimestamp();
            inner.BeginTransaction();
            _open = true;
        }
        inner.Send(key, value);
        if (++_inTransaction == records) End(cancellation);
    }

    public void SendBuffered() => inner.SendBuffered();

    public void Flush(CancellationToken cancellationToken)
    {
        if (_open) End(cancellationToken);
        inner.Flush(cancellationToken);
    }

    public void Dispose() => inner.Dispose();

    private void End(CancellationToken cancellationToken)
    {
        bool abort = TransactionPlan.IsAborted(_transaction, abortRatio);
        if (abort)
        {
            // Every record of it acknowledged first: an abort measures the abort, not records purged from the queue.
            inner.Flush(cancellationToken);
            inner.AbortTransaction(cancellationToken);
        }
        else
        {
            inner.CommitTransaction(cancellationToken);
        }
        recorder?.Record(_ticks.ToNanoseconds(clock.GetTimestamp() - _begun), abort);
        _transaction++;
        _inTransaction = 0;
        _open = false;
    }
}
