package kafkaperf.client;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The Java side of the Java consumers: polls a {@link KafkaConsumer} and packs each poll's records into a direct
 * buffer that .NET owns, so one call hands .NET many records. Per record: the key's 8 bytes as they are on the wire
 * (big-endian, Kafka's {@code LongSerializer}; a missing key is 8 bytes of {@code 0xFF} with length -1 below, as
 * any other length), the record's partition (4 bytes) and offset (8 bytes), then the value's length (4 bytes; -1 for
 * null) and the value; the numbers little-endian.
 *
 * <p>With prefetch, a Java thread of its own polls the next batch while .NET handles the current one; the
 * {@link KafkaConsumer}, which is not thread-safe, is then used by that thread alone until it stops.
 *
 * <p>In a share group (KIP-932) a {@link KafkaShareConsumer} polls instead. It is told of no assignment: the first poll
 * that returns records signals it. With explicit acknowledgement each record is accepted, one call per record, by the
 * thread that polled it, right after the poll (the acknowledgements travel with the next poll); with implicit
 * acknowledgement the next poll accepts the last one's records.
 */
public final class BenchConsumer implements AutoCloseable {
    private static final int HEADER = 8 + 4 + 8 + 4;

    /** Share-group mode: 0 a classic group, 1 a share group with implicit acknowledgement, 2 with explicit. */
    public static final int CLASSIC = 0;
    public static final int SHARE_EXPLICIT = 2;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaShareConsumer<byte[], byte[]> share;
    private final boolean explicit;
    private boolean shareSignalled;
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

    public BenchConsumer(String[] settings, String topic, long sink, boolean prefetch, int group) throws Exception {
        this.topic = topic;
        this.sink = sink;
        this.prefetch = prefetch;
        this.explicit = group == SHARE_EXPLICIT;
        Properties properties = Settings.consumer(settings);
        if (group == CLASSIC) {
            this.consumer = new KafkaConsumer<>(properties);
            this.share = null;
        } else {
            readShareGroupFromTheStart(properties);
            this.consumer = null;
            this.share = new KafkaShareConsumer<>(properties);
        }
    }

    /**
     * A share group starts at the log's end unless its {@code share.auto.offset.reset} says otherwise (a group setting,
     * not a client one): the run's group is set to read from the start before any member joins it.
     */
    private static void readShareGroupFromTheStart(Properties properties) throws Exception {
        Properties admin = new Properties();
        for (String key : properties.stringPropertyNames()) {
            if (key.equals("bootstrap.servers") || key.startsWith("security.") || key.startsWith("ssl.") || key.startsWith("sasl.")) {
                admin.put(key, properties.getProperty(key));
            }
        }
        String group = properties.getProperty(ConsumerConfig.GROUP_ID_CONFIG);
        try (Admin client = Admin.create(admin)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
            AlterConfigOp earliest = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET);
            client.incrementalAlterConfigs(Map.of(resource, List.of(earliest))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** The consumer's own metrics (read by the interval sampler on its thread: the map is a concurrent one). */
    public Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
        return share == null ? consumer.metrics() : share.metrics();
    }

    /** One poll of either consumer; a share consumer's first records signal the assignment, explicitly accepted. */
    private ConsumerRecords<byte[], byte[]> pollOnce(Duration timeout) {
        if (share == null) return consumer.poll(timeout);
        ConsumerRecords<byte[], byte[]> records = share.poll(timeout);
        if (records.isEmpty()) return records;
        if (explicit) {
            for (ConsumerRecord<byte[], byte[]> record : records) share.acknowledge(record, AcknowledgeType.ACCEPT);
        }
        if (!shareSignalled) {
            shareSignalled = true;
            if (!closed) Native.assigned(sink);
        }
        return records;
    }

    /** The buffer records are packed into; .NET allocates it and may replace it with a larger one. */
    public void setBuffer(ByteBuffer buffer) {
        this.buffer = buffer.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Subscribes; with prefetch, the prefetch thread starts polling at once. */
    public void start() {
        if (share != null) share.subscribe(List.of(topic));
        else consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                if (!closed) Native.rebalanced(sink, 1, numbers(partitions));
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                if (!closed) Native.rebalanced(sink, 2, numbers(partitions));
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                if (closed) return;
                Native.rebalanced(sink, 0, numbers(partitions));
                if (!partitions.isEmpty()) Native.assigned(sink);
            }
        });
        if (prefetch) {
            prefetcher = new Thread(this::prefetchLoop, "kafkaperf-java-prefetch");
            prefetcher.setDaemon(true);
            prefetcher.start();
        }
    }

    private static String numbers(Collection<TopicPartition> partitions) {
        StringBuilder text = new StringBuilder();
        for (TopicPartition partition : partitions) {
            if (text.length() > 0) text.append(',');
            text.append(partition.partition());
        }
        return text.toString();
    }

    private void prefetchLoop() {
        try {
            while (!stopping) {
                ConsumerRecords<byte[], byte[]> records = pollOnce(Duration.ofMillis(100));
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
        if (!prefetch) {
            try {
                return pollOnce(Duration.ofMillis(timeoutMs));
            } catch (WakeupException e) {
                return ConsumerRecords.empty();
            }
        }
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
                try {
                    records = pollOnce(Duration.ofMillis(timeoutMs));
                } catch (WakeupException e) {
                    return 0;
                }
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
            out.putInt(record.partition());
            out.putLong(record.offset());
            out.putInt(value == null ? -1 : value.length);
            if (value != null) out.put(value);
            count++;
        }
    }

    /**
     * Ends the poll in progress (or the next one) at once, as if it had found nothing: .NET calls it as it stops polling,
     * instead of waiting for the poll's time to run out. With prefetch nothing is done: the prefetch thread stops in close.
     * A wakeup left over when no poll follows is ignored by close.
     */
    public void wakeup() {
        if (prefetch) return;
        if (share != null) share.wakeup();
        else consumer.wakeup();
    }

    /**
     * Stops the prefetch thread (if any) and leaves the group, waiting up to {@code timeoutMs} for the broker; 0 after a
     * stall or a cancellation, so that a broker that is gone keeps nobody waiting, and for a classic group, whose leave and
     * last commit are then sent without waiting for their answers (nor for a fetch the broker still holds back).
     */
    public void close(long timeoutMs) throws InterruptedException {
        stopping = true;
        Thread.interrupted();
        if (prefetcher != null) {
            if (share != null) share.wakeup();
            else consumer.wakeup();
            prefetcher.join(Math.max(timeoutMs, 1_000));
            if (prefetcher.isAlive()) throw new IllegalStateException("The prefetch thread did not stop within " + Math.max(timeoutMs, 1_000) + " ms");
        }
        if (share != null) share.close(Duration.ofMillis(timeoutMs));
        else consumer.close(Duration.ofMillis(timeoutMs));
        closed = true;
    }

    /**
     * Lets go of the consumer as a process that died would: the prefetch thread stopped, then closed without leaving the
     * group or committing (KIP-1092's REMAIN_IN_GROUP) and without waiting for anything; the group notices only when the
     * member's session times out.
     */
    public void abandon() throws InterruptedException {
        stopping = true;
        Thread.interrupted();
        if (prefetcher != null) {
            consumer.wakeup();
            prefetcher.join(1_000);
        }
        // No callback reaches .NET from here on: the member is gone as far as the run knows.
        closed = true;
        // A process that died commits nothing, but close commits the positions when auto-commit is on: they go back to the
        // group's last commit first (a partition never committed is left without a position), so it commits nothing new.
        try {
            Set<TopicPartition> assigned = consumer.assignment();
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned, Duration.ofSeconds(5));
            for (TopicPartition partition : assigned) {
                OffsetAndMetadata offset = committed.get(partition);
                if (offset != null) consumer.seek(partition, offset);
                else consumer.seekToBeginning(List.of(partition));
            }
        } catch (RuntimeException e) {
            // The broker did not answer: the close may then commit, and the redelivered records are fewer than a crash's.
        }
        // A consumer-protocol member (KIP-848) heartbeats from a network thread of its own, and its close gives its
        // partitions back even when told to remain in the group: that thread is stopped first, as a process that died
        // stops it, so that nothing more reaches the broker from this member.
        boolean consumerProtocol = isConsumerProtocol();
        String notStopped = consumerProtocol ? stopNetworkThread() : null;
        CloseOptions remain = CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP).withTimeout(Duration.ZERO);
        if (consumerProtocol && notStopped == null) {
            // Without its network thread the close waits for answers that never come: it ends on a thread of its own.
            Thread closing = new Thread(() -> consumer.close(remain), "kafkaperf-java-abandoned-close");
            closing.setDaemon(true);
            closing.start();
            return;
        }
        consumer.close(remain);
        if (notStopped != null) {
            throw new IllegalStateException("the consumer-protocol member's network thread could not be stopped (" + notStopped
                + "), so its close may have given its partitions back as a leave does");
        }
    }

    private boolean isConsumerProtocol() {
        return consumer.groupMetadata() != null && delegateOf(consumer).getClass().getSimpleName().equals("AsyncKafkaConsumer");
    }

    private static Object delegateOf(KafkaConsumer<?, ?> consumer) {
        try {
            Field delegate = KafkaConsumer.class.getDeclaredField("delegate");
            delegate.setAccessible(true);
            return delegate.get(consumer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return consumer;
        }
    }

    /** Closes the consumer-protocol consumer's network thread at once; the reason when it could not. */
    private String stopNetworkThread() {
        try {
            Object inner = delegateOf(consumer);
            Field handler = inner.getClass().getDeclaredField("applicationEventHandler");
            handler.setAccessible(true);
            Object events = handler.get(inner);
            events.getClass().getMethod("close", Duration.class).invoke(events, Duration.ZERO);
            return null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return e.toString();
        }
    }

    @Override
    public void close() throws InterruptedException {
        close(30_000);
    }
}
