package kafkaperf.client;

/**
 * Calls from Java into .NET. The .NET side registers these with {@code RegisterNatives} before any producer or
 * consumer exists; {@code sink} is a handle the .NET side gave out and resolves back to its delivery or record sink.
 */
final class Native {
    private Native() {
    }

    /** The broker acknowledged the record with this key at this offset of this partition (-1: no offset, acks=0). */
    static native void delivered(long sink, long key, int partition, long offset);

    /** The record with this key could not be delivered. */
    static native void failed(long sink, long key, String reason);

    /** The consumer was assigned partitions: records may follow. */
    static native void assigned(long sink);

    /**
     * A rebalance callback of the consumer's group: {@code kind} 0 assigned, 1 revoked, 2 lost; {@code partitions} the
     * partitions' numbers, comma-separated (empty for none).
     */
    static native void rebalanced(long sink, int kind, String partitions);
}
