package kafkaperf.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Topic administration for the Java clients: create and wait for leaders, delete and wait until gone. Topics asked for at
 * once (the runner creates a cell's topics together, each call on a thread of its own) go in one CreateTopics request:
 * the broker reads one request per connection at a time, so twelve requests of one topic each took twelve times as long
 * as one of twelve.
 */
public final class BenchAdmin implements AutoCloseable {
    private final Admin admin;
    private final int timeoutMs;

    /** A topic waiting to be sent, and where its own result goes once its request is out. */
    private record Pending(NewTopic topic, CompletableFuture<KafkaFuture<Void>> result) { }

    private final Object gate = new Object();
    private final List<Pending> waiting = new ArrayList<>();
    private boolean sending;
    private final ExecutorService sender = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kafkaperf-java-admin-create");
        thread.setDaemon(true);
        return thread;
    });

    /** The listener's security settings (protocol, SASL, trust store) come as lines of {@code key=value}. */
    public BenchAdmin(String bootstrap, int timeoutMs, String security) throws Exception {
        Properties properties = new Properties();
        for (String line : security.split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) properties.put(line.substring(0, equals), line.substring(equals + 1));
        }
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "kafkaperf-java-admin");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        this.timeoutMs = timeoutMs;
        this.admin = Admin.create(properties);
        try {
            get(admin.describeCluster().clusterId());
        } catch (Exception e) {
            admin.close();
            throw e;
        }
    }

    /**
     * Creates a topic and returns once every partition has a leader; a topic that exists already throws TopicExistsException.
     * The topic's own settings come as lines of {@code key=value}.
     */
    public void createTopic(String name, int partitions, short replicationFactor, String configs) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (String line : configs.split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) settings.put(line.substring(0, equals), line.substring(equals + 1));
        }
        CompletableFuture<KafkaFuture<Void>> mine = new CompletableFuture<>();
        synchronized (gate) {
            waiting.add(new Pending(new NewTopic(name, partitions, replicationFactor).configs(settings), mine));
            if (!sending) {
                sending = true;
                sender.execute(this::sendWaiting);
            }
        }
        get(get(mine));
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            try {
                Map<String, TopicDescription> topics = get(admin.describeTopics(List.of(name)).allTopicNames());
                TopicDescription description = topics.get(name);
                if (description != null && description.partitions().size() == partitions
                        && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    return;
                }
            } catch (UnknownTopicOrPartitionException e) {
                // Not visible yet.
            }
            if (System.nanoTime() > deadline) throw new TimeoutException("Topic " + name + " had no leader for every partition after " + timeoutMs + " ms");
            Thread.sleep(20);
        }
    }

    /**
     * Sends the topics waiting, all in one request, waits for its answer, then the topics that came meanwhile, until none
     * is left; on the sender's own thread.
     */
    private void sendWaiting() {
        while (true) {
            List<Pending> batch;
            synchronized (gate) {
                if (waiting.isEmpty()) {
                    sending = false;
                    return;
                }
                batch = new ArrayList<>(waiting);
                waiting.clear();
            }
            try {
                CreateTopicsResult result = admin.createTopics(batch.stream().map(Pending::topic).toList());
                for (Pending pending : batch) pending.result().complete(result.values().get(pending.topic().name()));
                // The next request gathers what came while this one was out. Each caller reads its own topic's outcome.
                result.all().get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // A topic's own failure is its caller's (from its future); anything else fails the calls not yet answered.
                for (Pending pending : batch) pending.result().completeExceptionally(e);
            }
        }
    }

    /** Deletes a topic and returns once it is no longer listed; a missing topic is not an error. */
    public void deleteTopic(String name) throws Exception {
        try {
            get(admin.deleteTopics(List.of(name)).all());
        } catch (UnknownTopicOrPartitionException e) {
            return;
        }
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (get(admin.listTopics().names()).contains(name)) {
            if (System.nanoTime() > deadline) throw new TimeoutException("Topic " + name + " was still listed " + timeoutMs + " ms after its deletion");
            Thread.sleep(20);
        }
    }

    /** A future's value within the time limit; its cause (TopicExistsException, ...) thrown as itself. */
    private <T> T get(Future<T> future) throws Exception {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // The cause (TopicExistsException, ...) is what .NET should see.
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) throw exception;
            throw e;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("No answer from the cluster within " + timeoutMs + " ms");
        }
    }

    /** Closes the admin client, waiting up to {@code timeoutMs} for requests in flight. */
    public void close(long timeoutMs) {
        Thread.interrupted();
        sender.shutdownNow();
        admin.close(Duration.ofMillis(timeoutMs));
    }

    @Override
    public void close() {
        close(timeoutMs);
    }
}
