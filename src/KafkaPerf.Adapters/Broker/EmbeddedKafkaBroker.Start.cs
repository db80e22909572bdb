using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Adapters.Network;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

// Starting the cluster: its nodes' configuration, their JVMs, and the wait until every broker is listed.
public sealed partial class EmbeddedKafkaBroker
{
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
        JvmOptionsVariable.Read(JvmOptionsVariable.Broker); // a wrong word fails here, before anything starts
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
        // The proxies' ports are theirs from here on (bound, not let go), so only the nodes' own ports can be taken meanwhile.
        var network = options.ShapedNetwork ? new ProxyNetwork(options.Brokers, options.Brokers > 1 ? ControllersFor(options.Brokers) : 0) : null;
        try
        {
            var broker = await StartOnceAsync(java, classPath, jars, root, options, started, network, cancellationToken).ConfigureAwait(false);
            network = null;
            return broker;
        }
        finally
        {
            network?.Dispose();
        }
    }

    private static async Task<EmbeddedKafkaBroker> StartOnceAsync(
        string java, string classPath, KafkaJars jars, string root, EmbeddedKafkaBrokerOptions options, long started, ProxyNetwork? network,
        CancellationToken cancellationToken)
    {
        var dataDirectory = Path.Combine(root, $"{Environment.ProcessId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}");
        int count = options.Brokers;
        var ports = Enumerable.Range(0, count).Select(_ => (options.PortPicker ?? BrokerConfiguration.FreePorts)()).ToList();
        var security = options.Security;
        // A secured cluster keeps its brokers' own traffic, and the readiness check, on a plain listener of their own.
        // So does one behind shaping proxies: its inter-broker links get a proxy of their own.
        var internalPorts = security.IsSecured || network is not null ? Enumerable.Range(0, count).Select(_ => BrokerConfiguration.FreePorts().Port).ToList() : null;
        int controllers = ControllersFor(count);
        // One node formats as a standalone controller (a dynamic quorum of itself); a cluster names its voters statically,
        // so every node knows the quorum before any of them runs.
        string? voters = count == 1 ? null
            : string.Join(',', Enumerable.Range(0, controllers).Select(i => $"{i + 1}@127.0.0.1:{network?.ControllerProxy(i + 1)?.Port ?? ports[i].ControllerPort}"));
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
                var listener = security.IsSecured ? new BrokerConfiguration.ListenerSecurity(security, internalPorts![i], certificates) : null;
                var proxied = network is null ? null
                    : new BrokerConfiguration.ProxiedListeners(internalPorts![i], network.ClientProxy(i + 1).Port, network.InternalProxy(i + 1).Port, network.ControllerProxy(i + 1)?.Port);
                var config = BrokerConfiguration.ServerConfig(nodeDirectory, i + 1, count, ports[i].Port, ports[i].ControllerPort, voters, options.ExtraConfig,
                    listener, proxied);
                // Clients bootstrap through the proxy too: the first request is as far away as every other.
                int clientPort = proxied?.ClientProxyPort ?? ports[i].Port;
                var plan = new NodePlan(i + 1, nodeDirectory, $"127.0.0.1:{clientPort}", config)
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

        if (network is not null)
            for (int i = 0; i < count; i++) network.Start(i + 1, ports[i].Port, internalPorts![i], ports[i].ControllerPort);
        var launched = new List<Launched>(count);
        // A peer's link is told by the process that opened it, from the first connection on.
        if (network is not null)
        {
            network.Processes = () =>
            {
                lock (launched) return [.. launched.Select(l => (l.Plan.NodeId, l.Process.Id))];
            };
        }
        try
        {
            foreach (var plan in plans)
            {
                var node = Launch(java, classPath, plan, clusterId, count, options, archive?.OptionFor(plan.NodeId));
                lock (launched) launched.Add(node);
            }
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
        // From here on a restarted node's new process counts as the node.
        if (network is not null) network.Processes = () => nodes.Select(n => (n.NodeId, n.ProcessId));
        return new EmbeddedKafkaBroker(nodes, versions[0], dataDirectory, jars, Stopwatch.GetElapsedTime(started), options.CrashLogPath, archive,
            clientSecurity)
        {
            _relaunch = new Relaunch(java, classPath, plans, clusterId, options, archive),
            _network = network,
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
        foreach (var argument in (string[])
        [
            "-Xms" + heap, "-Xmx" + heap,
            // Kafka's own start script's JVM settings, so the broker performs as users run it.
            "-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true",
            .. JvmOptionsVariable.Read(JvmOptionsVariable.Broker),
            "-Dlog4j2.configurationFile=" + plan.LogConfigPath,
            "-cp", classPath, MainClass,
            plan.ConfigPath, clusterId, plan.DataDirectory, plan.ReadyAddress ?? plan.BootstrapServer,
            ((int)Math.Ceiling(options.StartTimeout.TotalSeconds)).ToString(CultureInfo.InvariantCulture),
            brokers.ToString(CultureInfo.InvariantCulture), brokers == 1 ? "standalone" : "static",
        ])
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
}
