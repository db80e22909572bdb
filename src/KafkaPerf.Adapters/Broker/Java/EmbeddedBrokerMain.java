package kafkaperf.broker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * Runs KafkaPerf's embedded broker in one JVM: formats the storage (standalone KRaft controller) when needed,
 * starts Kafka in combined mode, proves it ready with a real admin request, and then tells its owner on stdout.
 *
 * <p>Protocol with the owner (EmbeddedKafkaBroker.cs), one line each on stdout:
 * {@code KAFKAPERF-READY <kafka version>} or {@code KAFKAPERF-FAILED <reason>}.
 *
 * <p>The owner holds the write end of this process's stdin and never writes to it. When that pipe closes - the
 * owner disposed the broker, exited, or was killed, even with SIGKILL - this JVM deletes its data directory
 * and halts, so no broker outlives its owner. Ctrl+C in a terminal, and SIGTERM from tools that signal a whole process
 * group (timeout, service managers, CI cancellation), reach this JVM as well as its owner: once ready, the broker ignores
 * SIGINT and SIGTERM, so the owner can still delete its topics, save its results and then stop it in order. SIGKILL
 * still ends it; so does its owner's end.
 *
 * <p>Arguments: server.properties, cluster id, data directory, bootstrap address, ready timeout in seconds.
 */
public final class EmbeddedBrokerMain {
    private EmbeddedBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            fail("usage: EmbeddedBrokerMain <server.properties> <cluster-id> <data-dir> <bootstrap> <ready-timeout-s>");
        }
        String config = args[0];
        String clusterId = args[1];
        Path dataDir = Path.of(args[2]);
        String bootstrap = args[3];
        long readyTimeoutMs = TimeUnit.SECONDS.toMillis(Long.parseLong(args[4]));

        watchOwner(dataDir);
        format(config, clusterId);

        Thread server = new Thread(() -> kafka.Kafka.main(new String[] {config}), "kafkaperf-broker-main");
        server.start();
        awaitReady(bootstrap, readyTimeoutMs);
        ignoreTerminationSignals();
        System.out.println("KAFKAPERF-READY " + AppInfoParser.getVersion());
        System.out.flush();
        server.join();
    }

    private static void format(String config, String clusterId) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            exit = kafka.tools.StorageTool.execute(
                new String[] {"format", "--cluster-id", clusterId, "--config", config, "--standalone", "--ignore-formatted"}, out);
        } catch (Throwable t) {
            fail("formatting the storage failed: " + t);
            return;
        }
        if (exit != 0) {
            fail("formatting the storage exited with " + exit + ": " + captured.toString(StandardCharsets.UTF_8).replace('\n', ' ').trim());
        }
    }

    /** Polls with a real admin request (describeCluster) until the broker answers or the time is up. */
    private static void awaitReady(String bootstrap, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "20");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "100");
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "20");
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "100");
        Throwable last = null;
        try (Admin admin = Admin.create(props)) {
            while (System.nanoTime() < deadline) {
                try {
                    if (!admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
                Thread.sleep(20);
            }
        }
        fail("no admin request succeeded within " + timeoutMs / 1000 + " s" + (last == null ? "" : " (last error: " + last + ")"));
    }

    /** A daemon thread that waits for the owner's pipe to close, then removes the data and halts the JVM. */
    private static void watchOwner(Path dataDir) {
        Thread watchdog = new Thread(() -> {
            try (InputStream in = System.in) {
                byte[] buffer = new byte[64];
                while (in.read(buffer) >= 0) {
                    // The owner never writes; anything read is ignored. Only end-of-stream matters.
                }
            } catch (IOException e) {
                // A broken pipe means the same as end-of-stream: the owner is gone.
            }
            deleteTree(dataDir);
            Runtime.getRuntime().halt(0);
        }, "kafkaperf-owner-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void deleteTree(Path root) {
        // Kafka's threads may still create a file while the tree goes; a few passes settle it.
        for (int attempt = 0; attempt < 5 && Files.exists(root); attempt++) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | RuntimeException e) {
                // Retried below; the owner deletes what is left after this process ends.
            }
        }
    }

    /** Replaces Kafka's own handlers (set while it started), which would shut the broker down under its owner. */
    @SuppressWarnings("removal")
    private static void ignoreTerminationSignals() {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), sun.misc.SignalHandler.SIG_IGN);
            } catch (Throwable t) {
                // Not every platform has the signal; the owner still stops the broker through the pipe.
            }
        }
    }

    private static void fail(String reason) {
        System.out.println("KAFKAPERF-FAILED " + reason);
        System.out.flush();
        Runtime.getRuntime().halt(3);
    }
}
