namespace KafkaPerf.Clients;

/// <summary>A producer under test.</summary>
/// <remarks><see cref="Send"/> is called from one thread; delivery reports go to the sink given at creation.</remarks>
public interface IBenchProducer : IDisposable
{
    /// <summary>The configuration the client really runs with, after mapping the common knobs and overrides.</summary>
    IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    /// <summary>Sends one record. The hot path: no Task, closure or array per call.</summary>
    /// <param name="key">The record key (an ordinal, or a timestamp in roundtrip runs).</param>
    /// <param name="value">The payload; it stays unchanged for the whole run, so the client may keep a reference.</param>
    void Send(long key, ReadOnlyMemory<byte> value);

    /// <summary>Hands any records the adapter holds back (e.g. a packed batch) to the client, without waiting for their
    /// acknowledgements. A send schedule calls it before it waits for the next record's time, so that a rate never leaves
    /// a record waiting in the adapter. Most adapters hold nothing back.</summary>
    void SendBuffered()
    {
    }

    /// <summary>Starts a transaction (<see cref="ClientCapabilities.Transactions"/>; only when the producer was created
    /// with <see cref="ClientSettings.TransactionRecords"/>).</summary>
    void BeginTransaction() => throw new NotSupportedException("This producer has no transactions.");

    /// <summary>Commits the open transaction and blocks until the broker has (every record of it acknowledged).</summary>
    /// <param name="cancellationToken">Stops waiting: the run was cancelled or stalled.</param>
    void CommitTransaction(CancellationToken cancellationToken) => throw new NotSupportedException("This producer has no transactions.");

    /// <summary>Aborts the open transaction and blocks until the broker has. The caller flushes first, so that every
    /// record of it was acknowledged before it is aborted.</summary>
    /// <param name="cancellationToken">Stops waiting: the run was cancelled or stalled.</param>
    void AbortTransaction(CancellationToken cancellationToken) => throw new NotSupportedException("This producer has no transactions.");

    /// <summary>Blocks until every record sent so far has been acknowledged or has failed.</summary>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    void Flush(CancellationToken cancellationToken);
}
