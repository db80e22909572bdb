namespace KafkaPerf.Clients;

/// <summary>Receives a producer's delivery reports.</summary>
/// <remarks>Called once per record, usually on the client's delivery thread, but possibly on two threads at once
/// (librdkafka serves reports on its poll thread and inside a flush): implementations must be thread-safe. They must
/// not allocate or block: this is the produce hot path.</remarks>
public interface IDeliverySink
{
    /// <summary>The broker acknowledged the record with this key.</summary>
    /// <param name="key">The key that was sent.</param>
    void OnDelivered(long key);

    /// <summary>The record with this key could not be delivered.</summary>
    /// <param name="key">The key that was sent.</param>
    /// <param name="reason">The client's error text.</param>
    void OnDeliveryFailed(long key, string reason);
}
