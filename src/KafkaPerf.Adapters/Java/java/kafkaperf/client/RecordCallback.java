package kafkaperf.client;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The callback object of {@code java-records}: .NET creates one per send, as a bridge does for each
 * {@code send(record, callback)}, and it reports the acknowledgement back to .NET through {@link Native}.
 */
public final class RecordCallback implements Callback {
    private final BenchProducer owner;
    private final long key;

    public RecordCallback(BenchProducer owner, long key) {
        this.owner = owner;
        this.key = key;
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        owner.complete(key, metadata, exception);
    }
}
