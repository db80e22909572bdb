using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// A real Apache Kafka cluster of one or more KRaft nodes, each in a child JVM of its own, on free loopback ports, with a
/// fresh data folder that is deleted again on dispose. One node (the default) is a combined broker and controller; a
/// cluster's first three nodes are combined brokers and controllers (a quorum of three voters, so that any one node may
/// be lost), and further nodes are brokers only.
/// </summary>
/// <remarks>
/// <para>Ready means a real admin request (<c>describeCluster</c>) lists every broker, not just an open port.</para>
/// <para>No node outlives its owner: each JVM watches a pipe that only this process holds open, and when it closes - on
/// dispose, on exit, or when this process is killed, even with SIGKILL - the JVM deletes its data folder and halts.
/// Once ready, the nodes ignore Ctrl+C, so a cancelled run can still delete its topics before stopping them.</para>
/// <para>Thread-safe to dispose more than once.</para>
/// </remarks>
public sealed class EmbeddedKafkaBroker : IAsyncDisposable
{
    private const string MainClass = "kafkaperf.broker.EmbeddedBrokerMain";
    private const string ReadyPrefix = "KAFKAPERF-READY ";
    private const string FailedPrefix = "KAFKAPERF-FAILED ";
    private const int LogTailLines = 25;

    /// <summary>The most controllers (voters of the KRaft quorum): three survive the loss of any one.</summary>
    public const int MaxControllers = 3;

    internal const string LogFolderName = "kafka-logs";
    private readonly TaskCompletionSource<BrokerExit> _unexpectedExit = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string? _crashLogPath;
    private int _disposed;
    private IBrokerProbe? _probe;
    private IBrokerBreakdown? _breakdown;

    private readonly BrokerClassArchive? _classArchive;
    private Relaunch? _relaunch;

    private EmbeddedKafkaBroker(IReadOnlyList<EmbeddedBrokerNode> nodes, string version, string dataDirectory, KafkaJars jars,
        TimeSpan startupTime, string? crashLogPath, BrokerClassArchive? classArchive, KafkaSecurity security)
    {
        Security = security;
        _classArchive = classArchive;
        _crashLogPath = crashLogPath;
        Nodes = nodes;
        BootstrapServers = string.Join(',', nodes.Select(n => n.BootstrapServer));
        KafkaVersion = version;
        DataDirectory = dataDirectory;
        Jars = jars;
        StartupTime = startupTime;
        Exited = Task.WhenAll(nodes.Select(n => n.Exited));
        foreach (var node in nodes) WatchExit(node);
    }

    private void WatchExit(EmbeddedBrokerNode node) =>
        node.Exited.ContinueWith(static (_, state) =>
        {
            var (broker, exited) = ((EmbeddedKafkaBroker, EmbeddedBrokerNode))state!;
            broker.OnExited(exited);
        }, (this, node), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);

    /// <summary>How clients reach the cluster's client listener: the protocol, the SASL user and password it was started
    /// with, and the CA file (PEM) of its own certificate; plain TCP by default.</summary>
    public KafkaSecurity Security { get; }

    /// <summary>The bootstrap addresses of every node, <c>127.0.0.1:port,…</c>.</summary>
    public string BootstrapServers { get; }

    /// <summary>The Kafka version the nodes report.</summary>
    public string KafkaVersion { get; }

    /// <summary>The nodes, in node-id order (node ids start at 1).</summary>
    public IReadOnlyList<EmbeddedBrokerNode> Nodes { get; }

    /// <summary>How many controllers (KRaft voters) the cluster has: the first nodes, at most <see cref="MaxControllers"/>.</summary>
    public int Controllers => ControllersFor(Nodes.Count);

    /// <summary>The first node's JVM process id.</summary>
    public int ProcessId => Nodes[0].ProcessId;

    /// <summary>The cluster's data folder, holding one folder per node (<c>node-1</c>, …); deleted on dispose.</summary>
    public string DataDirectory { get; }

    /// <summary>The first node's <c>log.dirs</c>: one folder per partition, <c>TOPIC-N</c>.</summary>
    public string LogDirectory => Nodes[0].LogDirectory;

    /// <summary>Asks every serving node's JVM for a full collection (tests: a collection that must show in the broker's series).</summary>
    internal Task CollectGarbageAsync(CancellationToken cancellationToken) =>
        Task.WhenAll(Nodes.Where(n => n.IsServing).Select(n => n.AskAsync("gc", TimeSpan.FromSeconds(10), cancellationToken)));

    /// <summary>Reads the nodes' request metrics and collections per interval, for the breakdown (summed over the nodes).</summary>
    public IBrokerBreakdown Breakdown => _breakdown ??= new EmbeddedBrokerMetrics(this);

    /// <summary>Reads the nodes' CPU time and topics' bytes on disk (over every replica), for each run's resources.</summary>
    public IBrokerProbe Probe => _probe ??= new EmbeddedBrokerProbe(() => Nodes.Select(n => n.ProcessId), Nodes.Select(n => n.LogDirectory).ToList());

    /// <summary>The first node's log file.</summary>
    public string LogFile => Nodes[0].LogFile;

    /// <summary>The first node's <c>server.properties</c>, as written, for the result's environment.</summary>
    public IReadOnlyDictionary<string, string> Config => Nodes[0].Config;

    /// <summary>The jars it runs from.</summary>
    public KafkaJars Jars { get; }

    /// <summary>From the call to <see cref="StartAsync"/> until the cluster listed every broker.</summary>
    public TimeSpan StartupTime { get; }

    /// <summary>Tells of a node that ended by itself (or by <see cref="KillNode"/>) while the cluster goes on; the cluster's
    /// end is <see cref="UnexpectedExit"/>.</summary>
    public event Action<EmbeddedBrokerNode, BrokerExit>? NodeExited;

    /// <summary>Starts a broker, or a cluster of <see cref="EmbeddedKafkaBrokerOptions.Brokers"/> nodes, and returns once it
    /// answers admin requests with every broker listed.</summary>
    /// <param name="options">Nodes, heap, timeout, Kafka and Java locations; defaults when omitted.</param>
    /// <param name="cancellationToken">Stops the start; nothing is left behind.</param>
    /// <returns>The running broker, which the caller disposes.</returns>
    /// <exception cref="PrerequisiteException">Java or Kafka's jars were not found.</exception>
    /// <exception cref="BrokerStartException">The broker did not become ready; the message carries its log's tail.</exception>
    public static async Task<EmbeddedKafkaBroker> StartAsync(EmbeddedKafkaBrokerOptions? options = null, CancellationToken cancellationToken = default)
    {
        options ??= new EmbeddedKafkaBrokerOptions();
        options.Validate();
        long started = Stopwatch.GetTimestamp();
        var java = JavaLocator.FindJavaExecutable(options.JavaHome);
        var jars = KafkaJars.Locate(options.KafkaHome);
        var classPath = jars.ClassPathWithProjectJar();
        // One folder per user: another user's folders are neither readable nor ours to sweep.
        var root = options.DataRoot ?? Path.Combine(Path.GetTempPath(), "kafkaperf-brokers-" + BrokerDataFolders.SafeName(Environment.UserName));
        try
        {
            Directory.CreateDirectory(root);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PrerequisiteException(
                $"The broker's data folder cannot be created under '{root}' ({ex.Message}): make the temporary folder writable or point TMPDIR at one that is.", ex);
        }
        BrokerDataFolders.RemoveAbandonedDataDirectories(root);

        // Free ports are found by binding port 0 and letting go, so another process may take one in between:
        // a node that cannot bind starts the cluster again on new ports.
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return await StartOnceAsync(java, classPath, jars, root, options, started, cancellationToken).ConfigureAwait(false);
            }
            catch (BrokerStartException ex) when (attempt < 3 && ex.PortInUse)
            {
            }
        }
    }

    /// <summary>How many of <paramref name="brokers"/> nodes are controllers.</summary>
    internal static int ControllersFor(int brokers) => Math.Min(brokers, MaxControllers);

    private static async Task<EmbeddedKafkaBroker> StartOnceAsync(
        string java, string classPath, KafkaJars jars, string root, EmbeddedKafkaBrokerOptions options, long started,
        CancellationToken cancellationToken)
    {
        var dataDirectory = Path.Combine(root, $"{Environment.ProcessId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}");
        int count = options.Brokers;
        var ports = Enumerable.Range(0, count).Select(_ => (options.PortPicker ?? BrokerConfiguration.FreePorts)()).ToList();
        var security = options.Security;
        // A secured cluster keeps its brokers' own traffic, and the readiness check, on a plain listener of their own.
        var internalPorts = security.IsSecured ? Enumerable.Range(0, count).Select(_ => BrokerConfiguration.FreePorts().Port).ToList() : null;
        int controllers = ControllersFor(count);
        // One node formats as a standalone controller (a dynamic quorum of itself); a cluster names its voters statically,
        // so every node knows the quorum before any of them runs.
        string? voters = count == 1 ? null
            : string.Join(',', Enumerable.Range(0, controllers).Select(i => $"{i + 1}@127.0.0.1:{ports[i].ControllerPort}"));
        var clusterId = BrokerConfiguration.NewClusterId();
        var archive = BrokerClassArchive.For(root, java, classPath, Directory.EnumerateFiles(jars.LibsDirectory, "*.jar").Append(KafkaJars.ProjectJar),
            options.WriteClassArchive);
        var plans = new List<NodePlan>(count);
        KafkaSecurity clientSecurity = security;
        try
        {
            Directory.CreateDirectory(dataDirectory);
            // Marks the folder as a broker's, so the sweep of abandoned folders never touches anything else.
            File.WriteAllText(Path.Combine(dataDirectory, BrokerDataFolders.MarkerFile), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
            // Configurations of a secured cluster hold its keystore's password and its users': this user's eyes only.
            if (security.IsSecured) PrivateFile.RestrictFolder(dataDirectory);
            var certificates = security.UsesTls ? BrokerCertificates.Create(java, Path.Combine(dataDirectory, "tls")) : null;
            clientSecurity = security.WithCaFile(certificates?.CaFile);
            for (int i = 0; i < count; i++)
            {
                var nodeDirectory = Path.Combine(dataDirectory, $"node-{i + 1}");
                var listener = internalPorts is null ? null : new BrokerConfiguration.ListenerSecurity(security, internalPorts[i], certificates);
                var config = BrokerConfiguration.ServerConfig(nodeDirectory, i + 1, count, ports[i].Port, ports[i].ControllerPort, voters, options.ExtraConfig, listener);
                var plan = new NodePlan(i + 1, nodeDirectory, $"127.0.0.1:{ports[i].Port}", config)
                {
                    ReadyAddress = internalPorts is null ? null : $"127.0.0.1:{internalPorts[i]}",
                    ScramFile = security.UsesSasl && security.Mechanism != SaslMechanism.Plain ? Path.Combine(nodeDirectory, "scram-users.txt") : null,
                };
                Directory.CreateDirectory(nodeDirectory);
                PrivateFile.Write(plan.ConfigPath, string.Concat(config.Select(p => $"{p.Key}={BrokerConfiguration.PropertiesEscape(p.Value)}\n")));
                if (plan.ScramFile is not null)
                    PrivateFile.Write(plan.ScramFile, $"{security.MechanismName}=[name={security.Username},password=\"{security.RevealPassword()}\"]\n");
                File.WriteAllText(plan.LogConfigPath, BrokerConfiguration.LogConfig(plan.LogFile));
                plans.Add(plan);
            }
        }
        catch (PrerequisiteException)
        {
            BrokerDataFolders.DeleteDirectory(dataDirectory);
            throw;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            BrokerDataFolders.DeleteDirectory(dataDirectory);
            throw new PrerequisiteException(
                $"The broker's data folder '{dataDirectory}' cannot be written ({ex.Message}): make the temporary folder writable or point TMPDIR at one that is.", ex);
        }

        var launched = new List<Launched>(count);
        try
        {
            foreach (var plan in plans) launched.Add(Launch(java, classPath, plan, clusterId, count, options, archive?.OptionFor(plan.NodeId)));
        }
        catch (PrerequisiteException)
        {
            await Task.WhenAll(launched.Select(l => BrokerProcess.StopAsync(l.Process, l.Plan.DataDirectory))).ConfigureAwait(false);
            archive?.Complete(cleanExit: false);
            BrokerDataFolders.DeleteDirectory(dataDirectory);
            throw;
        }

        // Each JVM gives up after StartTimeout itself and says why; the margin lets that line arrive first.
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.StartTimeout + TimeSpan.FromSeconds(10));
        var versions = new string[count];
        Launched? failed = null;
        Exception? failure = null;
        var pending = launched.Select(l => l.Ready).ToList();
        while (pending.Count > 0)
        {
            Task<string> done;
            try
            {
                done = await Task.WhenAny(pending).WaitAsync(timeout.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException ex)
            {
                failure = ex;
                failed = launched.FirstOrDefault(l => !l.Ready.IsCompletedSuccessfully) ?? launched[0];
                break;
            }
            pending.Remove(done);
            var node = launched.First(l => l.Ready == done);
            if (done.IsCompletedSuccessfully)
            {
                versions[node.Plan.NodeId - 1] = done.Result;
                continue;
            }
            failure = done.Exception?.InnerException ?? new BrokerStartException("the broker JVM failed");
            failed = node;
            break;
        }
        if (failed is not null)
        {
            var log = BrokerProcess.ReadLog(failed.Plan.LogFile);
            // Read before the folders go: any node that could not bind makes the whole cluster start again on new ports.
            bool portInUse = launched.Any(l => BrokerProcess.ReadLog(l.Plan.LogFile).Any(line => line.Contains("Address already in use", StringComparison.Ordinal)));
            await Task.WhenAll(launched.Select(l => BrokerProcess.StopAsync(l.Process, l.Plan.DataDirectory))).ConfigureAwait(false);
            archive?.Complete(cleanExit: false);
            BrokerDataFolders.DeleteDirectory(dataDirectory);
            cancellationToken.ThrowIfCancellationRequested();
            var reason = failure is BrokerStartException ? failure.Message : $"it did not answer within {options.StartTimeout.TotalSeconds:0.#} s";
            // The cause is usually the broker's first error, far above the tail of shutdown noise.
            var firstError = log.FirstOrDefault(l => l.Contains(" ERROR ", StringComparison.Ordinal) || l.Contains(" FATAL ", StringComparison.Ordinal));
            if (firstError is not null) reason += "; its first error: " + BrokerProcess.Shorten(firstError);
            string which = count == 1 ? "broker" : $"cluster ({count} nodes; node {failed.Plan.NodeId} says)";
            throw new BrokerStartException(
                $"The embedded Kafka {which} ({jars.KafkaVersion}, from {jars.Origin}) did not start: {reason}"
                + BrokerProcess.Section("broker log", [.. log.TakeLast(LogTailLines)]) + BrokerProcess.Section("JVM output", failed.Output.Lines()), failure!)
            {
                PortInUse = portInUse,
            };
        }

        var nodes = launched.Select(l => new EmbeddedBrokerNode(l.Plan.NodeId, l.Plan.NodeId <= controllers, l.Process, l.Channel, l.Plan.BootstrapServer,
            l.Plan.DataDirectory, l.Plan.Config)).ToList();
        return new EmbeddedKafkaBroker(nodes, versions[0], dataDirectory, jars, Stopwatch.GetElapsedTime(started), options.CrashLogPath, archive,
            clientSecurity)
        {
            _relaunch = new Relaunch(java, classPath, plans, clusterId, options, archive),
        };
    }

    private static Launched Launch(string java, string classPath, NodePlan plan, string clusterId, int brokers, EmbeddedKafkaBrokerOptions options,
        string? classArchiveOption)
    {
        var start = new ProcessStartInfo(java)
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = plan.DataDirectory,
        };
        ChildEnvironment.RemoveSecrets(start);
        string heap = options.HeapMegabytes.ToString(CultureInfo.InvariantCulture) + "m";
        // Startup only: classes load from the shared archive (see BrokerClassArchive); the JVM starts without it if unusable.
        if (classArchiveOption is not null) start.ArgumentList.Add(classArchiveOption);
        foreach (var argument in new[]
        {
            "-Xms" + heap, "-Xmx" + heap,
            // Kafka's own start script's JVM settings, so the broker performs as users run it.
            "-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true",
            "-Dlog4j2.configurationFile=" + plan.LogConfigPath,
            "-cp", classPath, MainClass,
            plan.ConfigPath, clusterId, plan.DataDirectory, plan.ReadyAddress ?? plan.BootstrapServer,
            ((int)Math.Ceiling(options.StartTimeout.TotalSeconds)).ToString(CultureInfo.InvariantCulture),
            brokers.ToString(CultureInfo.InvariantCulture), brokers == 1 ? "standalone" : "static",
        })
        {
            start.ArgumentList.Add(argument);
        }
        // SCRAM users are written into the metadata when the storage is formatted: the file's path, never the password.
        if (plan.ScramFile is not null) start.ArgumentList.Add(plan.ScramFile);

        var ready = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var output = new BrokerProcess.OutputTail(LogTailLines);
        var process = new Process { StartInfo = start };
        var channel = new NodeChannel { Process = process };
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null) ready.TrySetException(new BrokerStartException("the broker JVM exited before it was ready"));
            else if (e.Data.StartsWith(NodeChannel.AnswerPrefix, StringComparison.Ordinal)) channel.OnAnswer(e.Data);
            else if (e.Data.StartsWith(ReadyPrefix, StringComparison.Ordinal)) ready.TrySetResult(e.Data[ReadyPrefix.Length..].Trim());
            else if (e.Data.StartsWith(FailedPrefix, StringComparison.Ordinal)) ready.TrySetException(new BrokerStartException(e.Data[FailedPrefix.Length..]));
            else output.Add(e.Data);
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null) output.Add(e.Data);
        };
        try
        {
            process.Start();
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            process.Dispose();
            throw new PrerequisiteException($"Java at '{java}' could not be started ({ex.Message}): install Java 17+ or set JAVA_HOME.", ex);
        }
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return new Launched(plan, process, ready.Task, output, channel);
    }

    private sealed record NodePlan(int NodeId, string DataDirectory, string BootstrapServer, IReadOnlyDictionary<string, string> Config)
    {
        /// <summary>The plain internal listener the readiness check uses on a secured cluster.</summary>
        public string? ReadyAddress { get; init; }

        /// <summary>The SCRAM user to create at format time, as <c>kafka-storage --add-scram</c> spells it.</summary>
        public string? ScramFile { get; init; }

        public string ConfigPath => Path.Combine(DataDirectory, "server.properties");

        public string LogConfigPath => Path.Combine(DataDirectory, "log4j2.properties");

        public string LogFile => Path.Combine(DataDirectory, "broker.log");
    }

    private sealed record Launched(NodePlan Plan, Process Process, Task<string> Ready, BrokerProcess.OutputTail Output, NodeChannel Channel);

    /// <summary>What starting a node again on its data needs.</summary>
    private sealed record Relaunch(string Java, string ClassPath, IReadOnlyList<NodePlan> Plans, string ClusterId, EmbeddedKafkaBrokerOptions Options,
        BrokerClassArchive? Archive);

    /// <summary>Completes when every node's JVM has ended, whatever the reason.</summary>
    public Task Exited { get; }

    /// <summary>Completes when the cluster can no longer serve because nodes ended by themselves - killed, crashed, out of
    /// memory - before it was disposed: the single node of a one-node cluster, a majority of the controllers, or every
    /// broker. It says how and where a copy of the log is; it never completes for a cluster that is disposed first.</summary>
    public Task<BrokerExit> UnexpectedExit => _unexpectedExit.Task;

    private void OnExited(EmbeddedBrokerNode node)
    {
        if (Volatile.Read(ref _disposed) != 0) return;
        string how;
        try
        {
            how = BrokerProcess.DescribeExit(node.ExitCode);
        }
        catch (InvalidOperationException)
        {
            how = "ended";
        }
        // A fault's kill is no crash: its log is not copied (nor, in the middle of a measured outage, read).
        var log = node.ExitExpected ? null : BrokerProcess.KeepLog(node, _crashLogPath, Nodes.Count);
        if (Nodes.Count == 1)
        {
            _unexpectedExit.TrySetResult(new BrokerExit($"the embedded broker exited ({how})", log));
            return;
        }
        var exit = new BrokerExit($"node {node.NodeId} of the embedded cluster exited ({how})", log);
        int controllersGone = Nodes.Count(n => n.IsController && n.Exited.IsCompleted);
        if (controllersGone > Controllers / 2 || Nodes.All(n => n.Exited.IsCompleted))
        {
            _unexpectedExit.TrySetResult(exit with
            {
                What = $"{exit.What}; {controllersGone} of its {Controllers} controllers are gone, so it cannot serve",
            });
            return;
        }
        // A fault's kill or graceful stop is the run's doing, said in its result: not a crash to report.
        if (!node.ExitExpected) NodeExited?.Invoke(node, exit);
    }

    /// <summary>Starts a node that ended (killed, stopped) again on its data, and returns once the cluster lists every
    /// broker again (a fault's second half, or healing).</summary>
    /// <param name="nodeId">The node's id, from 1.</param>
    /// <param name="cancellationToken">Stops waiting; the new JVM is then killed.</param>
    /// <exception cref="BrokerStartException">It did not become ready.</exception>
    internal async Task RestartNodeAsync(int nodeId, CancellationToken cancellationToken)
    {
        var relaunch = _relaunch ?? throw new InvalidOperationException("The cluster cannot start nodes again.");
        var node = Nodes[nodeId - 1];
        if (!node.Exited.IsCompleted) throw new InvalidOperationException($"Node {nodeId} still runs.");
        var plan = relaunch.Plans[nodeId - 1];
        // Ready once the cluster lists this node beside those serving now: another node may still be down (healing starts
        // them one after another).
        int expected = Nodes.Count(n => n.NodeId != nodeId && !n.Exited.IsCompleted) + 1;
        var launched = Launch(relaunch.Java, relaunch.ClassPath, plan, relaunch.ClusterId, expected, relaunch.Options, relaunch.Archive?.OptionFor(nodeId));
        try
        {
            await launched.Ready.WaitAsync(relaunch.Options.StartTimeout + TimeSpan.FromSeconds(10), cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            try
            {
                if (!launched.Process.HasExited) launched.Process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // Gone already.
            }
            if (ex is OperationCanceledException) throw;
            throw new BrokerStartException($"node {nodeId} did not start again: {ex.Message}" + BrokerProcess.Section("JVM output", launched.Output.Lines()), ex);
        }
        node.Replace(launched.Process, launched.Channel);
        if (Volatile.Read(ref _disposed) != 0)
        {
            node.Kill();
            return;
        }
        WatchExit(node);
    }

    /// <summary>Ends one node's JVM at once with SIGKILL, as a crash would, and waits until it is gone; the cluster goes
    /// on without it (a fault to inject). Its data folder stays until the cluster is disposed.</summary>
    /// <param name="nodeId">The node's id, from 1.</param>
    /// <exception cref="ArgumentOutOfRangeException">No node has that id.</exception>
    public void KillNode(int nodeId)
    {
        if (nodeId < 1 || nodeId > Nodes.Count)
            throw new ArgumentOutOfRangeException(nameof(nodeId), nodeId, $"The cluster has nodes 1 to {Nodes.Count}.");
        Nodes[nodeId - 1].Kill();
    }

    /// <summary>Ends every node's JVM at once with SIGKILL and deletes the data folder, waiting at most a second per node,
    /// for a process that is about to end itself: a stopped JVM (SIGSTOP) would not notice its owner is gone.</summary>
    public void Kill()
    {
        Interlocked.Exchange(ref _disposed, 1);
        foreach (var node in Nodes) node.Kill();
        _classArchive?.Complete(cleanExit: false);
        BrokerDataFolders.DeleteDirectory(DataDirectory);
    }

    /// <summary>Stops every node (each JVM deletes its data and halts) and deletes what is left of the data folder.</summary>
    /// <returns>A task that completes when every JVM is gone.</returns>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0) return;
        bool firstWasRunning = !Nodes[0].Exited.IsCompleted;
        await Task.WhenAll(Nodes.Select(n => BrokerProcess.StopAsync(n.Process, n.DataDirectory))).ConfigureAwait(false);
        _classArchive?.Complete(cleanExit: firstWasRunning);
        BrokerDataFolders.DeleteDirectory(DataDirectory);
    }
}
