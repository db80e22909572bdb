package kafkaperf.client;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The JVM's own figures for each run's resources, from its management beans: read by .NET before and after a timed
 * section, never inside one.
 */
public final class JvmStats {
    private JvmStats() {
    }

    /** Collections so far, over every collector (a collector that does not know says -1 and is left out). */
    public static long gcCount() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) total += Math.max(0, gc.getCollectionCount());
        return total;
    }

    /** Accumulated collection time so far, in milliseconds, over every collector. */
    public static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) total += Math.max(0, gc.getCollectionTime());
        return total;
    }

    /** The producer metrics of {@link #producerMetric}, by index. */
    private static final String[] PRODUCER_METRICS = {
        "record-queue-time-avg", "request-latency-avg", "batch-size-avg", "records-per-request-avg", "produce-throttle-time-avg",
    };

    /**
     * One of a producer's own figures, as the bits of a double (NaN when it has none yet): 0 the time a record waited in
     * the producer's accumulator (ms), 1 a produce request's latency (ms), 2 the batch size (bytes), 3 records per
     * request, 4 the broker's throttle time (ms). Averages over the producer's metric windows (1 s each while KafkaPerf
     * reads them). Called by .NET's interval sampler, never on the send path.
     */
    public static long producerMetric(BenchProducer producer, int which) {
        String name = PRODUCER_METRICS[which];
        for (Map.Entry<MetricName, ? extends Metric> entry : producer.metrics().entrySet()) {
            MetricName metric = entry.getKey();
            if (metric.name().equals(name) && metric.group().equals("producer-metrics")) {
                Object value = entry.getValue().metricValue();
                double d = value instanceof Number number ? number.doubleValue() : Double.NaN;
                return Double.doubleToRawLongBits(Double.isFinite(d) ? d : Double.NaN);
            }
        }
        return Double.doubleToRawLongBits(Double.NaN);
    }

    /** The consumer metrics of {@link #consumerMetric}, by index. */
    private static final String[] CONSUMER_METRICS = {"fetch-latency-avg", "records-lag-max"};

    /**
     * One of a consumer's own figures, as the bits of a double (NaN when it has none yet): 0 a fetch request's latency
     * (ms, over the consumer's metric window), 1 the largest lag of its partitions in the window, in records (a classic
     * consumer's; a share consumer has none). Read from the consumer's fetch manager metrics (the whole consumer's, not a
     * topic's or a partition's). Called by .NET's interval sampler, never on the polling thread.
     */
    public static long consumerMetric(BenchConsumer consumer, int which) {
        String name = CONSUMER_METRICS[which];
        for (Map.Entry<MetricName, ? extends Metric> entry : consumer.metrics().entrySet()) {
            MetricName metric = entry.getKey();
            if (metric.name().equals(name) && metric.group().endsWith("fetch-manager-metrics") && !metric.tags().containsKey("topic")) {
                Object value = entry.getValue().metricValue();
                double d = value instanceof Number number ? number.doubleValue() : Double.NaN;
                return Double.doubleToRawLongBits(Double.isFinite(d) ? d : Double.NaN);
            }
        }
        return Double.doubleToRawLongBits(Double.NaN);
    }

    /** Asks the JVM for a full collection (tests: a collection that must show in the series). */
    public static void collect() {
        System.gc();
    }

    /** Heap bytes in use now. */
    public static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
