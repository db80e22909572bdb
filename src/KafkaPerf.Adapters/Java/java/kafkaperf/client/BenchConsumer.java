package kafkaperf.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The Java side of the Java consumers: polls a {@link KafkaConsumer} and packs each poll's records into a direct
 * buffer that .NET owns, so one call hands .NET many records. Per record: the key's 8 bytes as they are on the wire
 * (big-endian, Kafka's {@code LongSerializer}; a missing key is 8 bytes of {@code 0xFF} with length -1 below, as
 * any other length), then the value's length (4 bytes, little-endian; -1 for null) and the value.
 *
 * <p>With prefetch, a Java thread of its own polls the next batch while .NET handles the current one; the
 * {@link KafkaConsumer}, which is not thread-safe, is then used by that thread alone until it stops.
 */
public final class BenchConsumer implements AutoCloseable {
    private static final int HEADER = 8 + 4;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final long sink;
    private final boolean prefetch;
    private final BlockingQueue<ConsumerRecords<byte[], byte[]>> ready = new ArrayBlockingQueue<>(1);
    private volatile boolean stopping;
    /** Set once close() has returned: no callback may reach .NET afterwards. */
    private volatile boolean closed;
    private volatile RuntimeException prefetchFailure;
    private Thread prefetcher;
    private ByteBuffer buffer;
    private Iterator<ConsumerRecord<byte[], byte[]>> pending;
    private ConsumerRecord<byte[], byte[]> carried;

    public BenchConsumer(String[] settings, String topic, long sink, boolean prefetch) {
        this.topic = topic;
        this.sink = sink;
        this.prefetch = prefetch;
        this.consumer = new KafkaConsumer<>(Settings.consumer(settings));
    }

    /** The buffer records are packed into; .NET allocates it and may replace it with a larger one. */
    public void setBuffer(ByteBuffer buffer) {
        this.buffer = buffer.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Subscribes; with prefetch, the prefetch thread starts polling at once. */
    public void start() {
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                if (!partitions.isEmpty() && !closed) Native.assigned(sink);
            }
        });
        if (prefetch) {
            prefetcher = new Thread(this::prefetchLoop, "kafkaperf-java-prefetch");
            prefetcher.setDaemon(true);
            prefetcher.start();
        }
    }

    private void prefetchLoop() {
        try {
            while (!stopping) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (records.isEmpty()) continue;
                while (!stopping && !ready.offer(records, 100, TimeUnit.MILLISECONDS)) {
                    // .NET still handles the previous batch: this one waits, already fetched.
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // Stopping.
        } catch (RuntimeException e) {
            prefetchFailure = e;
        }
    }

    /**
     * The next poll's records as they are, for {@code java-records}: .NET iterates them itself through JNI, as a bridge
     * does. With prefetch they come from the prefetch thread's last poll.
     *
     * @return the records, empty when the poll timed out.
     */
    public ConsumerRecords<byte[], byte[]> pollRecords(int timeoutMs) throws InterruptedException {
        if (!prefetch) return consumer.poll(Duration.ofMillis(timeoutMs));
        RuntimeException failure = prefetchFailure;
        if (failure != null) throw failure;
        ConsumerRecords<byte[], byte[]> records = ready.poll(timeoutMs, TimeUnit.MILLISECONDS);
        return records == null ? ConsumerRecords.empty() : records;
    }

    /**
     * Packs records into the buffer, polling for more when none are left from the last poll.
     *
     * @return the number of records packed (0 when the poll timed out), or minus the bytes the next record needs
     *     when even that one does not fit in an empty buffer: .NET then sets a larger buffer and calls again.
     */
    public int poll(int timeoutMs) throws InterruptedException {
        if ((pending == null || !pending.hasNext()) && carried == null) {
            ConsumerRecords<byte[], byte[]> records;
            if (prefetch) {
                RuntimeException failure = prefetchFailure;
                if (failure != null) throw failure;
                records = ready.poll(timeoutMs, TimeUnit.MILLISECONDS);
                if (records == null) return 0;
            } else {
                records = consumer.poll(Duration.ofMillis(timeoutMs));
            }
            pending = records.iterator();
        }
        ByteBuffer out = buffer;
        out.clear();
        int count = 0;
        while (true) {
            ConsumerRecord<byte[], byte[]> record = carried != null ? carried : (pending.hasNext() ? pending.next() : null);
            carried = null;
            if (record == null) return count;
            byte[] key = record.key();
            byte[] value = record.value();
            int needed = HEADER + (value == null ? 0 : value.length);
            if (out.remaining() < needed) {
                carried = record;
                return count > 0 ? count : -needed;
            }
            if (key != null && key.length == 8) out.put(key);
            else out.putLong(-1L);
            out.putInt(value == null ? -1 : value.length);
            if (value != null) out.put(value);
            count++;
        }
    }

    /**
     * Stops the prefetch thread (if any) and leaves the group, waiting up to {@code timeoutMs} for the broker; 0 after a
     * stall or a cancellation, so that a broker that is gone keeps nobody waiting.
     */
    public void close(long timeoutMs) throws InterruptedException {
        stopping = true;
        Thread.interrupted();
        if (prefetcher != null) {
            consumer.wakeup();
            prefetcher.join(Math.max(timeoutMs, 1_000));
            if (prefetcher.isAlive()) throw new IllegalStateException("The prefetch thread did not stop within " + Math.max(timeoutMs, 1_000) + " ms");
        }
        consumer.close(Duration.ofMillis(timeoutMs));
        closed = true;
    }

    @Override
    public void close() throws InterruptedException {
        close(30_000);
    }
}
