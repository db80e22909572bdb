namespace KafkaPerf.Clients;

/// <summary>Receives a producer's delivery reports.</summary>
/// <remarks>Called once per record, usually on the client's delivery thread, but possibly on two threads at once
/// (librdkafka serves reports on its poll thread and inside a flush): implementations must be thread-safe. They must
/// not allocate or block: this is the produce hot path.</remarks>
public interface IDeliverySink
{
    /// <summary>The broker acknowledged the record with this key, at an offset the client does not report.</summary>
    /// <param name="key">The key that was sent.</param>
    /// <remarks>A client that knows the offset calls <see cref="OnDelivered(long, int, long)"/> instead: without it a
    /// record that never arrives can be reported only as <em>not verified</em>, never as lost.</remarks>
    void OnDelivered(long key);

    /// <summary>The broker acknowledged the record with this key at this offset of this partition.</summary>
    /// <param name="key">The key that was sent.</param>
    /// <param name="partition">The partition the record was written to.</param>
    /// <param name="offset">Its offset there; negative when the broker gave none (<c>acks=0</c>).</param>
    /// <remarks>The offset is what makes a loss a proof: a record is counted lost only once a read of its partition went
    /// past it. Added in contract 1.2; the default forwards to <see cref="OnDelivered(long)"/>.</remarks>
    void OnDelivered(long key, int partition, long offset) => OnDelivered(key);

    /// <summary>The record with this key could not be delivered.</summary>
    /// <param name="key">The key that was sent.</param>
    /// <param name="reason">The client's error text.</param>
    void OnDeliveryFailed(long key, string reason);
}
