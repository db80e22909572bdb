package kafkaperf.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;

/**
 * The Java side of the {@code java} and {@code java-batched} producers: a plain {@link KafkaProducer} whose keys are
 * the records' ids in {@link LongSerializer}'s layout (big-endian), or the keys of the run's distribution
 * ({@link RecordKeys}), and {@link ByteArraySerializer} values. Every acknowledgement goes back to .NET through
 * {@link Native#delivered} on the producer's I/O thread.
 */
public final class BenchProducer implements AutoCloseable {
    private final KafkaProducer<Long, byte[]> producer;
    private final String topic;
    private final long sink;
    private final RecordKeys keys = new RecordKeys();
    /** The headers every record carries (shared: the producer only reads them); null for none. */
    private Headers headers;
    /** Set once close() has returned: no callback may reach .NET afterwards (its sink may be gone). */
    private volatile boolean closed;

    public BenchProducer(String[] settings, String topic, long sink, int metadataTimeoutMs) {
        this.topic = topic;
        this.sink = sink;
        java.util.Properties properties = Settings.producer(settings);
        this.producer = new KafkaProducer<>(properties, keys, new ByteArraySerializer());
        try {
            if (properties.containsKey("transactional.id")) producer.initTransactions();
            awaitLeaders(metadataTimeoutMs);
        } catch (RuntimeException e) {
            Thread.interrupted();
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /** Fetches the topic's metadata until every partition has a leader, so the first timed send waits for none. */
    private void awaitLeaders(int timeoutMs) {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            List<PartitionInfo> partitions = producer.partitionsFor(topic);
            if (!partitions.isEmpty() && partitions.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) return;
            if (System.nanoTime() > deadline) throw new TimeoutException("Topic " + topic + " has no leader for every partition after " + timeoutMs + " ms");
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TimeoutException("Interrupted while waiting for the metadata of " + topic);
            }
        }
    }

    /**
     * The run's workload, before the first record: the key distribution (mode as KafkaPerf.Core's KeyMode: 0 unique,
     * 1 none, 2 fixed, 3 random, 4 zipf; zipf's cumulative thresholds as big-endian longs) and the headers.
     */
    public void workload(int mode, int count, int keySize, byte[] thresholds, int headerCount, int headerBytes) {
        keys.configure(mode, count, keySize, thresholds);
        if (headerCount > 0) {
            RecordHeaders all = new RecordHeaders();
            for (int h = 0; h < headerCount; h++) {
                byte[] value = new byte[headerBytes];
                for (int i = 0; i < headerBytes; i++) value[i] = (byte) ('a' + ((h + i) % 26));
                all.add(new RecordHeader("h" + h, value));
            }
            headers = all;
        }
    }

    /** The headers every record carries, for {@code java-records}; null for none. */
    public Headers headers() {
        return headers;
    }

    /** The producer itself, for {@code java-records}: .NET builds each record and calls its {@code send} through JNI. */
    public KafkaProducer<Long, byte[]> kafkaProducer() {
        return producer;
    }

    /** Reports one record's outcome to .NET, unless this producer is closed (its sink may be gone). */
    void complete(long key, RecordMetadata metadata, Exception exception) {
        if (closed) return;
        if (exception == null) Native.delivered(sink, key, metadata.partition(), metadata.hasOffset() ? metadata.offset() : -1L);
        else Native.failed(sink, key, exception.toString());
    }

    /** One record per call: what a bridge that crosses once per record does ({@code java}). */
    public void send(long key, byte[] value) {
        AckedRecord record = new AckedRecord(this, topic, key, value);
        producer.send(record, record);
    }

    /**
     * Records packed by .NET into a direct buffer, one call per batch ({@code java-batched}): per record a key
     * (8 bytes), a value length (4 bytes) and the value, little-endian.
     */
    public void sendPacked(ByteBuffer packed, int count) {
        ByteBuffer buffer = packed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        buffer.clear();
        for (int i = 0; i < count; i++) {
            long key = buffer.getLong();
            int length = buffer.getInt();
            byte[] value = new byte[length];
            buffer.get(value);
            AckedRecord record = new AckedRecord(this, topic, key, value);
            try {
                producer.send(record, record);
            } catch (RuntimeException e) {
                // This record and the rest of the batch were not sent: each is reported, none is lost silently.
                Native.failed(sink, key, e.toString());
                for (int j = i + 1; j < count; j++) {
                    long rest = buffer.getLong();
                    int skip = buffer.getInt();
                    buffer.position(buffer.position() + skip);
                    Native.failed(sink, rest, e.toString());
                }
                throw e;
            }
        }
    }

    /** Starts a transaction ({@code --transactions}). */
    public void beginTransaction() {
        producer.beginTransaction();
    }

    /** Commits the open transaction, blocking until the broker has; interrupted like {@link #flush}. */
    public void commitTransaction() {
        producer.commitTransaction();
    }

    /** Aborts the open transaction, blocking until the broker has. */
    public void abortTransaction() {
        producer.abortTransaction();
    }

    /**
     * Blocks until every record sent so far is acknowledged or failed. .NET ends it early, as any other blocking call
     * of this producer (a send waiting for buffer room or metadata), by interrupting the calling thread.
     */
    public void flush() {
        producer.flush();
    }

    /** The producer's own metrics, for the interval breakdown ({@link JvmStats#producerMetric}). */
    java.util.Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
        return producer.metrics();
    }

    /**
     * Closes the producer, waiting up to {@code timeoutMs} for records in flight; 0 after a stall or a cancellation, so
     * that a broker that is gone keeps nobody waiting (the records left are failed).
     */
    public void close(long timeoutMs) {
        // An interrupt meant for an earlier call must not cut this one short.
        Thread.interrupted();
        producer.close(Duration.ofMillis(timeoutMs));
        closed = true;
    }

    @Override
    public void close() {
        close(30_000);
    }

    /** The record is its own callback: one object per send instead of two. */
    private static final class AckedRecord extends ProducerRecord<Long, byte[]> implements Callback {
        private final BenchProducer owner;
        private final long key;

        AckedRecord(BenchProducer owner, String topic, long key, byte[] value) {
            super(topic, null, key, value, owner.headers);
            this.owner = owner;
            this.key = key;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            owner.complete(key, metadata, exception);
        }
    }
}
