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

    /// <summary>Blocks until every record sent so far has been acknowledged or has failed.</summary>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    void Flush(CancellationToken cancellationToken);
}
