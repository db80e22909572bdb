namespace KafkaPerf.Clients;

/// <summary>Receives what a consumer polls.</summary>
/// <remarks>Called on the consumer's poll thread. <see cref="OnRecord"/> is the consume hot path: no allocation, no blocking.</remarks>
public interface IRecordSink
{
    /// <summary>Partitions have been assigned: records may follow.</summary>
    void OnAssigned();

    /// <summary>One record arrived.</summary>
    /// <param name="key">The record's key.</param>
    /// <param name="value">The record's value, valid only during the call.</param>
    void OnRecord(long key, ReadOnlySpan<byte> value);

    /// <summary>The consumer hit an error it cannot recover from by itself.</summary>
    /// <param name="reason">The client's error text.</param>
    void OnError(string reason);
}
