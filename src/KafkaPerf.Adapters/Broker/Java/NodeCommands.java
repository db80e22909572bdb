package kafkaperf.broker;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;

/**
 * The owner's questions and orders to the cluster, for fault injection, answered through an admin client of this node's
 * JVM (already running: nothing starts while a run is timed). One command a line on stdin, {@code ID VERB ARGS...}; one
 * answer a line on stdout, {@code KAFKAPERF-ANSWER ID ok TEXT} or {@code KAFKAPERF-ANSWER ID error MESSAGE}.
 *
 * <ul>
 * <li>{@code leader TOPIC PARTITION}: {@code LEADER ISR REPLICAS} (ids comma-separated; leader -1 when there is none);</li>
 * <li>{@code controller}: the id of the active controller (the KRaft quorum's leader);</li>
 * <li>{@code move-leader TOPIC PARTITION}: another in-sync replica is put first in the partition's replica list and elected
 * its preferred leader; answers that node's id;</li>
 * <li>{@code health BROKERS}: {@code healthy}, or {@code waiting REASON} while the cluster lists fewer brokers, a replica is
 * out of sync, or a partition is not led by its preferred replica;</li>
 * <li>{@code elect-preferred}: a preferred-leader election over every partition.</li>
 * <li>{@code metrics}: this node's request metrics and collections so far, read from its own MBeans (no admin request):
 * for Produce, then FetchConsumer, then ShareFetch requests, each of request queue, local, remote, response queue,
 * response send and total time, the histogram's count and sum in milliseconds; then the JVM's collection time in
 * milliseconds and its collections. Answered on the reading thread, so that a slow admin question never delays it.</li>
 * <li>{@code gc}: a full collection of this node's JVM (tests: a collection that must show in the broker's series).</li>
 * </ul>
 */
final class NodeCommands {
    private static final long TimeoutMs = 5000;
    private final String address;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "kafkaperf-node-commands");
        thread.setDaemon(true);
        return thread;
    });
    private Admin admin;

    NodeCommands(String address) {
        this.address = address;
    }

    void submit(String line) {
        String[] words = line.trim().split("\\s+");
        if (words.length < 2) return;
        if ("metrics".equals(words[1])) answer(words);
        else executor.execute(() -> answer(words));
    }

    void close() {
        executor.shutdownNow();
    }

    private void answer(String[] words) {
        String id = words[0];
        String text;
        try {
            text = "ok " + run(words);
        } catch (ExecutionException e) {
            text = "error " + describe(e.getCause() == null ? e : e.getCause());
        } catch (Exception e) {
            text = "error " + describe(e);
        }
        synchronized (System.out) {
            System.out.println("KAFKAPERF-ANSWER " + id + " " + text);
            System.out.flush();
        }
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return (t.getClass().getSimpleName() + (message == null ? "" : ": " + message)).replace('\n', ' ');
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(EmbeddedBrokerMain.adminProperties(address, 3000, 4000, 200));
        }
        return admin;
    }

    private String run(String[] words) throws Exception {
        switch (words[1]) {
            case "leader": {
                TopicPartitionInfo info = partition(words[2], Integer.parseInt(words[3]));
                return (info.leader() == null || info.leader().isEmpty() ? -1 : info.leader().id()) + " " + ids(info.isr()) + " " + ids(info.replicas());
            }
            case "controller":
                return Integer.toString(admin().describeMetadataQuorum().quorumInfo().get(TimeoutMs, TimeUnit.MILLISECONDS).leaderId());
            case "move-leader":
                return Integer.toString(moveLeader(words[2], Integer.parseInt(words[3])));
            case "health":
                return health(Integer.parseInt(words[2]));
            case "elect-preferred":
                electPreferred(null);
                return "done";
            case "metrics":
                return metrics();
            case "gc":
                System.gc();
                return "done";
            default:
                throw new IllegalArgumentException("unknown command " + words[1]);
        }
    }

    private static final String[] Requests = {"Produce", "FetchConsumer", "ShareFetch"};
    private static final String[] RequestTimes = {"RequestQueueTimeMs", "LocalTimeMs", "RemoteTimeMs", "ResponseQueueTimeMs", "ResponseSendTimeMs", "TotalTimeMs"};

    private static String metrics() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        // The histograms are read one after another while requests complete, and Kafka records a request in its parts one
        // after another: a request counted in some parts and not others (or a mean read after a count that did not have
        // it) skews an interval of few requests - a fetch's 500 ms long poll among three. A reading is consistent when every
        // part of a kind of request has the same count and no count moved while its mean was read; under a load where
        // that never happens a request more or less is noise, and the last reading is taken.
        double[] reading = read(server, true);
        for (int attempt = 0; attempt < 20 && reading == null; attempt++) reading = read(server, true);
        if (reading == null) reading = read(server, false);
        StringBuilder text = new StringBuilder();
        for (double value : reading) {
            if (value == Math.rint(value) && Math.abs(value) < 1e15) text.append((long) value);
            else text.append(value);
            text.append(' ');
        }
        long gcMillis = 0, gcCount = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMillis += Math.max(0, collector.getCollectionTime());
            gcCount += Math.max(0, collector.getCollectionCount());
        }
        return text.append(gcMillis).append(' ').append(gcCount).toString();
    }

    /** Each histogram's count and sum (count × mean), for every kind of request and part, in order; with
     * {@code consistent}, null when the reading was not (see {@link #metrics}). */
    private static double[] read(MBeanServer server, boolean consistent) throws Exception {
        double[] values = new double[Requests.length * RequestTimes.length * 2];
        int at = 0;
        for (String request : Requests) {
            long kindCount = -1;
            for (String time : RequestTimes) {
                ObjectName name = new ObjectName("kafka.network:type=RequestMetrics,name=" + time + ",request=" + request);
                // Registered at the first request of the kind.
                if (server.isRegistered(name)) {
                    long count = ((Number) server.getAttribute(name, "Count")).longValue();
                    double mean = ((Number) server.getAttribute(name, "Mean")).doubleValue();
                    if (consistent && ((Number) server.getAttribute(name, "Count")).longValue() != count) return null;
                    if (consistent && kindCount >= 0 && count != kindCount) return null;
                    kindCount = count;
                    values[at] = count;
                    values[at + 1] = count * mean;
                }
                at += 2;
            }
        }
        return values;
    }

    private TopicPartitionInfo partition(String topic, int partition) throws Exception {
        TopicDescription description = admin().describeTopics(List.of(topic)).allTopicNames().get(TimeoutMs, TimeUnit.MILLISECONDS).get(topic);
        return description.partitions().get(partition);
    }

    private int moveLeader(String topic, int partition) throws Exception {
        TopicPartitionInfo info = partition(topic, partition);
        int leader = info.leader() == null ? -1 : info.leader().id();
        Node next = info.isr().stream().filter(n -> n.id() != leader).findFirst()
            .orElseThrow(() -> new IllegalStateException("no other in-sync replica to move the leadership to"));
        List<Integer> order = new ArrayList<>();
        order.add(next.id());
        for (Node replica : info.replicas()) {
            if (replica.id() != next.id()) order.add(replica.id());
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        // The same replicas in another order: no data moves, only the preferred leader changes.
        admin().alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(order)))).all().get(TimeoutMs, TimeUnit.MILLISECONDS);
        electPreferred(Set.of(tp));
        return next.id();
    }

    private void electPreferred(Set<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, Optional<Throwable>> results = admin().electLeaders(ElectionType.PREFERRED, partitions).partitions().get(TimeoutMs, TimeUnit.MILLISECONDS);
        for (Map.Entry<TopicPartition, Optional<Throwable>> result : results.entrySet()) {
            if (result.getValue().isPresent() && !(result.getValue().get() instanceof ElectionNotNeededException)) {
                throw new IllegalStateException("electing the preferred leader of " + result.getKey() + " failed: " + describe(result.getValue().get()));
            }
        }
    }

    private String health(int brokers) throws Exception {
        Collection<Node> nodes = admin().describeCluster().nodes().get(TimeoutMs, TimeUnit.MILLISECONDS);
        if (nodes.size() < brokers) return "waiting the cluster lists " + nodes.size() + " of its " + brokers + " brokers";
        Set<String> names = admin().listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names().get(TimeoutMs, TimeUnit.MILLISECONDS);
        if (names.isEmpty()) return "healthy";
        for (TopicDescription topic : admin().describeTopics(names).allTopicNames().get(TimeoutMs, TimeUnit.MILLISECONDS).values()) {
            for (TopicPartitionInfo p : topic.partitions()) {
                if (p.isr().size() < p.replicas().size()) {
                    return "waiting " + topic.name() + "-" + p.partition() + " has " + p.isr().size() + " of " + p.replicas().size() + " replicas in sync";
                }
                if (p.leader() == null || p.leader().isEmpty() || p.leader().id() != p.replicas().get(0).id()) {
                    return "waiting " + topic.name() + "-" + p.partition() + " is not led by its preferred replica " + p.replicas().get(0).id();
                }
            }
        }
        return "healthy";
    }

    private static String ids(List<Node> nodes) {
        return nodes.isEmpty() ? "-" : nodes.stream().map(n -> Integer.toString(n.id())).collect(Collectors.joining(","));
    }
}
