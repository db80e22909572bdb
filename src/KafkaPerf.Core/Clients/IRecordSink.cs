namespace KafkaPerf.Clients;

/// <summary>Receives what a consumer polls.</summary>
/// <remarks>Called on the consumer's poll thread. <see cref="OnRecord"/> and <see cref="OnRecordPosition"/> are the
/// consume hot path: no allocation, no blocking.</remarks>
public interface IRecordSink
{
    /// <summary>Partitions have been assigned: records may follow.</summary>
    void OnAssigned();

    /// <summary>One record arrived.</summary>
    /// <param name="key">The record's key.</param>
    /// <param name="value">The record's value, valid only during the call.</param>
    void OnRecord(long key, ReadOnlySpan<byte> value);

    /// <summary>Where the record just handed to <see cref="OnRecord"/> was: its partition and offset. A consumer calls it
    /// once per record, after <see cref="OnRecord"/> for that record and before the next.</summary>
    /// <param name="partition">The record's partition.</param>
    /// <param name="offset">The record's offset in it.</param>
    /// <remarks>This is how far the read went, which decides whether a record that never arrived is lost (the read went
    /// past the offset at which it was acknowledged) or not verified (the read stopped before it). A consumer that never
    /// calls it leaves every missing record not verified. Added in contract 1.2; the default ignores it, so a sink that
    /// wraps another must forward it.</remarks>
    void OnRecordPosition(int partition, long offset)
    {
    }

    /// <summary>A rebalance gave this member partitions: all it now owns under an eager assignor, the ones added under an
    /// incremental one (cooperative-sticky, the consumer protocol); possibly none. A consumer that reports its group's
    /// rebalances (<see cref="ClientCapabilities.GroupMembership"/>) calls it from its rebalance callback, on its poll
    /// thread, as well as <see cref="OnAssigned"/>.</summary>
    /// <param name="partitions">The partitions of the run's topic.</param>
    /// <remarks>Added in contract 2.1; the default ignores it.</remarks>
    void OnPartitionsAssigned(IReadOnlyList<int> partitions)
    {
    }

    /// <summary>A rebalance took partitions from this member: revoked (it could commit before letting go) or lost (taken
    /// without its knowing, as after its session expired: it could not).</summary>
    /// <param name="partitions">The partitions of the run's topic.</param>
    /// <param name="lost">Whether they were lost rather than revoked.</param>
    /// <remarks>Added in contract 2.1; the default ignores it.</remarks>
    void OnPartitionsRevoked(IReadOnlyList<int> partitions, bool lost)
    {
    }

    /// <summary>The consumer hit an error it cannot recover from by itself.</summary>
    /// <param name="reason">The client's error text.</param>
    void OnError(string reason);
}
