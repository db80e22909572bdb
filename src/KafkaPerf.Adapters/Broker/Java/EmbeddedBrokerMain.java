package kafkaperf.broker;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.Exit;

/**
 * Runs one node of KafkaPerf's embedded cluster in one JVM: formats the storage when needed (a standalone KRaft
 * controller for a single node; the static quorum of its server.properties for a cluster), starts Kafka, proves the
 * cluster ready with a real admin request that sees every broker, and then tells its owner on stdout.
 *
 * <p>Protocol with the owner (EmbeddedKafkaBroker.cs), one line each on stdout:
 * {@code KAFKAPERF-READY <kafka version>} or {@code KAFKAPERF-FAILED <reason>}.
 *
 * <p>The owner holds the write end of this process's stdin and writes only commands to it (fault injection: see
 * {@link NodeCommands}; {@code stop} for a graceful shutdown that keeps the data). When that pipe closes - the
 * owner disposed the broker, exited, or was killed, even with SIGKILL - this JVM deletes its data directory
 * and halts, so no broker outlives its owner. Ctrl+C in a terminal, and SIGTERM from tools that signal a whole process
 * group (timeout, service managers, CI cancellation), reach this JVM as well as its owner: once ready, the broker ignores
 * SIGINT and SIGTERM, so the owner can still delete its topics, save its results and then stop it in order. SIGKILL
 * still ends it; so does its owner's end.
 *
 * <p>Arguments: server.properties, cluster id, data directory, bootstrap address, ready timeout in seconds, the number
 * of brokers the cluster has when it is ready, and whether to format as a standalone controller ({@code standalone})
 * or with the static voters of the configuration ({@code static}); then, for a cluster with SCRAM logins, a file of
 * {@code kafka-storage format --add-scram} values, one per line. The bootstrap address is the listener the readiness
 * check uses: the plain internal one of a secured cluster.
 */
public final class EmbeddedBrokerMain {
    private EmbeddedBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7 && args.length != 8) {
            fail("usage: EmbeddedBrokerMain <server.properties> <cluster-id> <data-dir> <bootstrap> <ready-timeout-s> <brokers> <standalone|static> [scram-users-file]");
        }
        String config = args[0];
        String clusterId = args[1];
        Path dataDir = Path.of(args[2]);
        String bootstrap = args[3];
        long readyTimeoutMs = TimeUnit.SECONDS.toMillis(Long.parseLong(args[4]));
        int brokers = Integer.parseInt(args[5]);
        boolean standalone = "standalone".equals(args[6]);
        List<String> scramUsers = args.length == 8 ? Files.readAllLines(Path.of(args[7]), StandardCharsets.UTF_8) : List.of();

        watchOwner(dataDir, bootstrap);
        format(config, clusterId, standalone, scramUsers);

        Thread server = new Thread(() -> kafka.Kafka.main(new String[] {config}), "kafkaperf-broker-main");
        server.start();
        awaitReady(bootstrap, brokers, readyTimeoutMs);
        ignoreTerminationSignals();
        System.out.println("KAFKAPERF-READY " + AppInfoParser.getVersion());
        System.out.flush();
        server.join();
    }

    private static void format(String config, String clusterId, boolean standalone, List<String> scramUsers) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit;
        List<String> list = new ArrayList<>(List.of("format", "--cluster-id", clusterId, "--config", config, "--ignore-formatted"));
        // controller.quorum.voters names every voter: the static quorum needs no initial controllers at format time.
        if (standalone) list.add("--standalone");
        // SCRAM credentials live in the cluster's metadata: written at format time, read here from a file (never argv).
        for (String user : scramUsers) {
            if (!user.isBlank()) {
                list.add("--add-scram");
                list.add(user.trim());
            }
        }
        String[] arguments = list.toArray(new String[0]);
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            exit = kafka.tools.StorageTool.execute(arguments, out);
        } catch (Throwable t) {
            fail("formatting the storage failed: " + t);
            return;
        }
        if (exit != 0) {
            // The tool's own words may quote its arguments, a SCRAM password among them: none is repeated.
            String said = captured.toString(StandardCharsets.UTF_8).replace('\n', ' ').trim();
            for (String user : scramUsers) {
                if (!user.isBlank()) said = said.replace(user.trim(), "[SCRAM user]");
            }
            fail("formatting the storage exited with " + exit + ": " + said);
        }
    }

    /** Polls with a real admin request (describeCluster) until it lists every broker of the cluster or the time is up. */
    private static void awaitReady(String bootstrap, int brokers, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        // The client port opens last, once the broker runs: an admin client started before then only spins through
        // reconnects and rebootstraps, taking CPU from the nodes still starting.
        awaitListening(bootstrap, deadline);
        Properties props = adminProperties(bootstrap, 2000, 2000, 100);
        Throwable last = null;
        int seen = 0;
        try (Admin admin = Admin.create(props)) {
            while (System.nanoTime() < deadline) {
                try {
                    seen = admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).size();
                    if (seen >= brokers) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
                Thread.sleep(20);
            }
        }
        if (seen > 0) {
            fail("the cluster listed " + seen + " of its " + brokers + " brokers after " + timeoutMs / 1000 + " s");
        }
        fail("no admin request succeeded within " + timeoutMs / 1000 + " s" + (last == null ? "" : " (last error: " + last + ")"));
    }

    /** An admin client's settings for this cluster's loopback listener: short timeouts, quick retries. */
    static Properties adminProperties(String address, int requestTimeoutMs, int apiTimeoutMs, int maxBackoffMs) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(requestTimeoutMs));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(apiTimeoutMs));
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "20");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, Integer.toString(maxBackoffMs));
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "20");
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, Integer.toString(maxBackoffMs));
        return props;
    }

    /** Returns once a TCP connection to the address succeeds, or at the deadline (the admin request then says why). */
    private static void awaitListening(String address, long deadline) throws InterruptedException {
        int colon = address.lastIndexOf(':');
        InetSocketAddress target = new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(target, 500);
                return;
            } catch (IOException e) {
                Thread.sleep(25);
            }
        }
    }

    /**
     * A daemon thread that reads the owner's commands (see {@link NodeCommands}) until the pipe closes, then removes the
     * data and halts the JVM. A graceful stop ({@code stop}) keeps the data, so that the node can start again on it.
     */
    private static void watchOwner(Path dataDir, String adminAddress) {
        Thread watchdog = new Thread(() -> {
            NodeCommands commands = new NodeCommands(adminAddress);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if ("stop".equals(line.trim())) {
                        commands.close();
                        // Kafka's own shutdown hook runs the controlled shutdown: leadership moves before the node goes.
                        new Thread(() -> System.exit(0), "kafkaperf-graceful-stop").start();
                        return;
                    }
                    commands.submit(line);
                }
            } catch (IOException e) {
                // A broken pipe means the same as end-of-stream: the owner is gone.
            }
            // Kafka halts a broker whose log directory fails, and it fails once it is moved aside: until this process
            // halts on its own, Kafka's exits and halts do nothing, so that none cuts the deletion short.
            Exit.setHaltProcedure((status, message) -> { });
            Exit.setExitProcedure((status, message) -> { });
            deleteTree(moveAside(dataDir));
            deleteClusterFolderIfLast(dataDir.getParent());
            Runtime.getRuntime().halt(0);
        }, "kafkaperf-owner-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * The cluster's folder holds one folder per node and the owner's marker: the last node to go removes it, so that an
     * owner that ended at once (SIGKILL) leaves nothing behind.
     */
    private static void deleteClusterFolderIfLast(Path cluster) {
        if (cluster == null) return;
        Path marker = cluster.resolve(".kafkaperf-broker");
        try (Stream<Path> entries = Files.list(cluster)) {
            if (!Files.exists(marker) || entries.anyMatch(p -> !p.equals(marker))) return;
            Files.deleteIfExists(marker);
            Files.deleteIfExists(cluster);
        } catch (IOException | RuntimeException e) {
            // Another node went at the same time, or the owner deletes it; the next start sweeps what is left.
        }
    }

    /**
     * Renames the data folder before it is deleted: Kafka's threads, still running, create their files under the old
     * path, which no longer exists, so none appears in the tree being deleted (deleting in place lost that race on a CI
     * machine under load even with 5 s of passes). The renamed folder is a sibling, so the cluster's folder still goes
     * last. The folder itself when it cannot be renamed.
     */
    private static Path moveAside(Path dataDir) {
        Path aside = dataDir.resolveSibling(".deleting-" + dataDir.getFileName());
        try {
            Files.move(dataDir, aside, StandardCopyOption.ATOMIC_MOVE);
            return aside;
        } catch (IOException | RuntimeException e) {
            return dataDir;
        }
    }

    private static void deleteTree(Path root) {
        // Kafka's threads may still create a file while the tree goes; passes a little apart settle it. Five passes back
        // to back lost that race on a CI machine under a load of 16 and left the folder behind: now up to 5 s of them.
        for (int attempt = 0; attempt < 50 && Files.exists(root); attempt++) {
            if (attempt > 0) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | RuntimeException e) {
                // Retried; the owner, or the next start, deletes what is left after this process ends.
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
