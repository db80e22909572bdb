package kafkaperf.client;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

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

    /** Heap bytes in use now. */
    public static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
