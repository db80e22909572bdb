using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text.RegularExpressions;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// A real single-node Apache Kafka broker (KRaft, combined broker and controller) in a child JVM, on free loopback
/// ports, with a fresh data folder that is deleted again on dispose.
/// </summary>
/// <remarks>
/// <para>Ready means a real admin request (<c>describeCluster</c>) succeeded, not just an open port.</para>
/// <para>No broker outlives its owner: the JVM watches a pipe that only this process holds open, and when it closes -
/// on dispose, on exit, or when this process is killed, even with SIGKILL - the JVM deletes its data folder and
/// halts. Once ready, the broker ignores Ctrl+C, so a cancelled run can still delete its topics before stopping it.</para>
/// <para>Thread-safe to dispose more than once.</para>
/// </remarks>
public sealed partial class EmbeddedKafkaBroker : IAsyncDisposable
{
    private const string MainClass = "kafkaperf.broker.EmbeddedBrokerMain";
    private const string ReadyPrefix = "KAFKAPERF-READY ";
    private const string FailedPrefix = "KAFKAPERF-FAILED ";
    private const int LogTailLines = 25;
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(10);

    private const string MarkerFile = ".kafkaperf-broker";
    private const string LogFolderName = "kafka-logs";
    private readonly Process _process;
    private readonly Task _exited;
    private readonly TaskCompletionSource<BrokerExit> _unexpectedExit = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string? _crashLogPath;
    private int _disposed;
    private EmbeddedBrokerProbe? _probe;

    private EmbeddedKafkaBroker(Process process, string bootstrap, string version, string dataDirectory,
        IReadOnlyDictionary<string, string> config, KafkaJars jars, TimeSpan startupTime, string? crashLogPath)
    {
        _crashLogPath = crashLogPath;
        _process = process;
        BootstrapServers = bootstrap;
        KafkaVersion = version;
        DataDirectory = dataDirectory;
        Config = config;
        Jars = jars;
        StartupTime = startupTime;
        ProcessId = process.Id;
        _exited = process.WaitForExitAsync();
        _exited.ContinueWith(static (_, state) => ((EmbeddedKafkaBroker)state!).OnExited(), this,
            CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
    }

    /// <summary>The bootstrap address, <c>127.0.0.1:port</c>.</summary>
    public string BootstrapServers { get; }

    /// <summary>The Kafka version the broker reports.</summary>
    public string KafkaVersion { get; }

    /// <summary>The broker JVM's process id.</summary>
    public int ProcessId { get; }

    /// <summary>The broker's data folder (log segments, metadata, its log file); deleted on dispose.</summary>
    public string DataDirectory { get; }

    /// <summary>The broker's <c>log.dirs</c>: one folder per partition, <c>TOPIC-N</c>, inside <see cref="DataDirectory"/>.</summary>
    public string LogDirectory => Path.Combine(DataDirectory, LogFolderName);

    /// <summary>Reads the broker's CPU time and topics' bytes on disk, for each run's resources.</summary>
    public IBrokerProbe Probe => _probe ??= new EmbeddedBrokerProbe(ProcessId, LogDirectory);

    /// <summary>The broker's log file, inside <see cref="DataDirectory"/>.</summary>
    public string LogFile => Path.Combine(DataDirectory, "broker.log");

    /// <summary>The broker's <c>server.properties</c>, as written, for the result's environment.</summary>
    public IReadOnlyDictionary<string, string> Config { get; }

    /// <summary>The jars it runs from.</summary>
    public KafkaJars Jars { get; }

    /// <summary>From the call to <see cref="StartAsync"/> until the broker answered its first admin request.</summary>
    public TimeSpan StartupTime { get; }

    /// <summary>Starts a broker and returns once it answers admin requests.</summary>
    /// <param name="options">Heap, timeout, Kafka and Java locations; defaults when omitted.</param>
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
        var root = options.DataRoot ?? Path.Combine(Path.GetTempPath(), "kafkaperf-brokers-" + SafeName(Environment.UserName));
        try
        {
            Directory.CreateDirectory(root);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PrerequisiteException(
                $"The broker's data folder cannot be created under '{root}' ({ex.Message}): make the temporary folder writable or point TMPDIR at one that is.", ex);
        }
        RemoveAbandonedDataDirectories(root);

        // Free ports are found by binding port 0 and letting go, so another process may take one in between:
        // a broker that cannot bind starts again on new ports.
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

    private static async Task<EmbeddedKafkaBroker> StartOnceAsync(
        string java, string classPath, KafkaJars jars, string root, EmbeddedKafkaBrokerOptions options, long started,
        CancellationToken cancellationToken)
    {
        var dataDirectory = Path.Combine(root, $"{Environment.ProcessId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}");
        var (port, controllerPort) = (options.PortPicker ?? FreePorts)();
        var bootstrap = $"127.0.0.1:{port}";
        var config = ServerConfig(dataDirectory, port, controllerPort, options.ExtraConfig);
        var configPath = Path.Combine(dataDirectory, "server.properties");
        var logConfigPath = Path.Combine(dataDirectory, "log4j2.properties");
        var logFile = Path.Combine(dataDirectory, "broker.log");
        try
        {
            Directory.CreateDirectory(dataDirectory);
            // Marks the folder as a broker's, so the sweep of abandoned folders never touches anything else.
            File.WriteAllText(Path.Combine(dataDirectory, MarkerFile), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
            File.WriteAllText(configPath, string.Concat(config.Select(p => $"{p.Key}={p.Value}\n")));
            File.WriteAllText(logConfigPath, LogConfig(logFile));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            DeleteDirectory(dataDirectory);
            throw new PrerequisiteException(
                $"The broker's data folder '{dataDirectory}' cannot be written ({ex.Message}): make the temporary folder writable or point TMPDIR at one that is.", ex);
        }

        var start = new ProcessStartInfo(java)
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = dataDirectory,
        };
        string heap = options.HeapMegabytes.ToString(CultureInfo.InvariantCulture) + "m";
        foreach (var argument in new[]
        {
            "-Xms" + heap, "-Xmx" + heap,
            // Kafka's own start script's JVM settings, so the broker performs as users run it.
            "-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true",
            "-Dlog4j2.configurationFile=" + logConfigPath,
            "-cp", classPath, MainClass,
            configPath, NewClusterId(), dataDirectory, bootstrap,
            ((int)Math.Ceiling(options.StartTimeout.TotalSeconds)).ToString(CultureInfo.InvariantCulture),
        })
        {
            start.ArgumentList.Add(argument);
        }

        var ready = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var output = new OutputTail(LogTailLines);
        var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null) ready.TrySetException(new BrokerStartException("the broker JVM exited before it was ready"));
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
            DeleteDirectory(dataDirectory);
            throw new PrerequisiteException($"Java at '{java}' could not be started ({ex.Message}): install Java 17+ or set JAVA_HOME.", ex);
        }
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        // The JVM gives up after StartTimeout itself and says why; the margin lets that line arrive first.
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.StartTimeout + TimeSpan.FromSeconds(10));
        string version;
        try
        {
            version = await ready.Task.WaitAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is BrokerStartException or OperationCanceledException)
        {
            var log = ReadLog(logFile);
            await StopAsync(process, dataDirectory).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            var reason = ex is BrokerStartException ? ex.Message : $"it did not answer within {options.StartTimeout.TotalSeconds:0.#} s";
            // The cause is usually the broker's first error, far above the tail of shutdown noise.
            var firstError = log.FirstOrDefault(l => l.Contains(" ERROR ", StringComparison.Ordinal) || l.Contains(" FATAL ", StringComparison.Ordinal));
            if (firstError is not null) reason += "; its first error: " + Shorten(firstError);
            throw new BrokerStartException(
                $"The embedded Kafka broker ({jars.KafkaVersion}, from {jars.Origin}) did not start: {reason}"
                + Section("broker log", [.. log.TakeLast(LogTailLines)]) + Section("JVM output", output.Lines()), ex)
            {
                PortInUse = log.Any(l => l.Contains("Address already in use", StringComparison.Ordinal)),
            };
        }

        return new EmbeddedKafkaBroker(process, bootstrap, version, dataDirectory, config, jars, Stopwatch.GetElapsedTime(started), options.CrashLogPath);
    }

    /// <summary>Completes when the broker JVM has ended, whatever the reason.</summary>
    public Task Exited => _exited;

    /// <summary>Completes when the broker JVM has ended by itself - killed, crashed, out of memory - before it was disposed,
    /// saying how and where a copy of its log is; never completes for a broker that is disposed first.</summary>
    public Task<BrokerExit> UnexpectedExit => _unexpectedExit.Task;

    private void OnExited()
    {
        if (Volatile.Read(ref _disposed) != 0) return;
        string how;
        try
        {
            how = DescribeExit(_process.ExitCode);
        }
        catch (InvalidOperationException)
        {
            how = "ended";
        }
        _unexpectedExit.TrySetResult(new BrokerExit($"the embedded broker exited ({how})", KeepLog()));
    }

    /// <summary>How a process ended, from its exit code (a process killed by signal N reports 128 + N).</summary>
    /// <param name="exitCode">The exit code.</param>
    /// <returns>E.g. <c>killed by SIGKILL</c> or <c>exit code 1</c>.</returns>
    internal static string DescribeExit(int exitCode) => exitCode switch
    {
        > 128 and < 160 => (exitCode - 128) switch
        {
            1 => "killed by SIGHUP",
            2 => "killed by SIGINT",
            6 => "killed by SIGABRT",
            9 => "killed by SIGKILL",
            11 => "killed by SIGSEGV",
            15 => "killed by SIGTERM",
            var signal => $"killed by signal {signal}",
        },
        _ => $"exit code {exitCode}",
    };

    /// <summary>Copies the log out of the data folder, which goes when the broker is disposed: to the path asked for, else
    /// (a folder that cannot be written) to the temporary folder.</summary>
    private string? KeepLog()
    {
        var fallback = Path.Combine(Path.GetTempPath(), $"kafkaperf-broker-{ProcessId}.log");
        foreach (var target in _crashLogPath is null ? [fallback] : new[] { _crashLogPath, fallback })
        {
            try
            {
                var folder = Path.GetDirectoryName(Path.GetFullPath(target));
                if (folder is not null) Directory.CreateDirectory(folder);
                File.Copy(LogFile, target, overwrite: false);
                return target;
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Next place.
            }
        }
        return null;
    }

    /// <summary>Ends the broker JVM at once with SIGKILL and deletes its data folder, waiting at most a second, for a process
    /// that is about to end itself: a stopped JVM (SIGSTOP) would not notice its owner is gone.</summary>
    public void Kill()
    {
        Interlocked.Exchange(ref _disposed, 1);
        try
        {
            if (!_process.HasExited) _process.Kill(entireProcessTree: true);
            _process.WaitForExit(1000);
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception or AggregateException)
        {
            // Gone already.
        }
        DeleteDirectory(DataDirectory);
    }

    /// <summary>Stops the broker (the JVM deletes its data and halts) and deletes what is left of the data folder.</summary>
    /// <returns>A task that completes when the JVM is gone.</returns>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0) return;
        await StopAsync(_process, DataDirectory).ConfigureAwait(false);
    }

    private static async Task StopAsync(Process process, string dataDirectory)
    {
        try
        {
            try
            {
                if (!process.HasExited) process.StandardInput.Close();
            }
            catch (Exception ex) when (ex is IOException or InvalidOperationException)
            {
                // The pipe is already gone: the JVM stops by itself.
            }
            // A stopped JVM (SIGSTOP, a debugger) cannot see its pipe close: waiting for it would be in vain.
            if (IsStopped(process) || !await WaitForExitAsync(process).ConfigureAwait(false))
            {
                // A JVM that does not stop when its owner lets go is ended the hard way.
                try
                {
                    process.Kill(entireProcessTree: true);
                }
                catch (Exception ex) when (ex is InvalidOperationException or AggregateException or System.ComponentModel.Win32Exception)
                {
                    // It ended meanwhile, or cannot be signalled; its data is still removed below.
                }
                await WaitForExitAsync(process).ConfigureAwait(false);
            }
        }
        finally
        {
            process.Dispose();
            DeleteDirectory(dataDirectory);
        }
    }

    /// <summary>Whether the process is stopped by a signal (state T in <c>/proc/PID/stat</c>); false where that cannot be read.</summary>
    private static bool IsStopped(Process process)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{process.Id}/stat");
            // The command name may hold spaces and parentheses: the state follows the last ')'.
            int close = stat.LastIndexOf(')');
            return close > 0 && close + 2 < stat.Length && stat[close + 2] is 'T' or 't';
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            return false;
        }
    }

    private static async Task<bool> WaitForExitAsync(Process process)
    {
        using var wait = new CancellationTokenSource(StopTimeout);
        try
        {
            await process.WaitForExitAsync(wait.Token).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    private static Dictionary<string, string> ServerConfig(string dataDirectory, int port, int controllerPort, IReadOnlyDictionary<string, string> extra)
    {
        var config = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["process.roles"] = "broker,controller",
            ["node.id"] = "1",
            ["controller.quorum.bootstrap.servers"] = $"127.0.0.1:{controllerPort}",
            ["listeners"] = $"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controllerPort}",
            ["advertised.listeners"] = $"PLAINTEXT://127.0.0.1:{port}",
            ["controller.listener.names"] = "CONTROLLER",
            ["listener.security.protocol.map"] = "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            ["inter.broker.listener.name"] = "PLAINTEXT",
            ["log.dirs"] = Path.Combine(dataDirectory, LogFolderName),
            ["num.partitions"] = "1",
            // Benchmarks create every topic themselves; a typo must fail, not create a topic silently.
            ["auto.create.topics.enable"] = "false",
            ["offsets.topic.replication.factor"] = "1",
            // One node: one partition of consumer offsets keeps the group coordinator quick to load.
            ["offsets.topic.num.partitions"] = "1",
            ["transaction.state.log.replication.factor"] = "1",
            ["transaction.state.log.min.isr"] = "1",
            ["share.coordinator.state.topic.replication.factor"] = "1",
            ["share.coordinator.state.topic.min.isr"] = "1",
            // A lone consumer is assigned at once instead of after Kafka's default 3 s wait for more members.
            ["group.initial.rebalance.delay.ms"] = "0",
        };
        foreach (var (key, value) in extra) config[key] = value;
        return config;
    }

    private static string LogConfig(string logFile) =>
        $"""
        status = error
        appender.file.type = File
        appender.file.name = file
        appender.file.fileName = {logFile}
        appender.file.layout.type = PatternLayout
        appender.file.layout.pattern = [%d] %p %m (%c)%n
        rootLogger.level = INFO
        rootLogger.appenderRef.file.ref = file
        logger.kafka-request.name = kafka.request.logger
        logger.kafka-request.level = WARN
        """;

    /// <summary>A Kafka cluster id: 16 random bytes in URL-safe base64 without padding, never starting with '-'.</summary>
    private static string NewClusterId()
    {
        while (true)
        {
            var id = Convert.ToBase64String(RandomNumberGenerator.GetBytes(16)).TrimEnd('=').Replace('+', '-').Replace('/', '_');
            if (id[0] != '-') return id;
        }
    }

    private static (int Port, int ControllerPort) FreePorts()
    {
        using var first = new TcpListener(IPAddress.Loopback, 0);
        using var second = new TcpListener(IPAddress.Loopback, 0);
        first.Start();
        second.Start();
        int a = ((IPEndPoint)first.LocalEndpoint).Port, b = ((IPEndPoint)second.LocalEndpoint).Port;
        first.Stop();
        second.Stop();
        return (a, b);
    }

    /// <summary>Deletes broker data folders (named <c>pid-token</c>, with the marker file) whose owning process is gone.</summary>
    private static void RemoveAbandonedDataDirectories(string root)
    {
        foreach (var directory in Directory.EnumerateDirectories(root))
        {
            var match = DataFolderName().Match(Path.GetFileName(directory));
            if (!match.Success || !File.Exists(Path.Combine(directory, MarkerFile))) continue;
            int pid = int.Parse(match.Groups[1].ValueSpan, NumberStyles.None, CultureInfo.InvariantCulture);
            if (pid != Environment.ProcessId && !IsRunning(pid)) DeleteDirectory(directory);
        }
    }

    private static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
        catch (InvalidOperationException)
        {
            return false;
        }
    }

    private static void DeleteDirectory(string directory)
    {
        for (int attempt = 0; attempt < 5 && Directory.Exists(directory); attempt++)
        {
            try
            {
                Directory.Delete(directory, recursive: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                Thread.Sleep(50);
            }
        }
    }

    /// <summary>The broker's log, read while the JVM may still hold it open.</summary>
    private static List<string> ReadLog(string path)
    {
        var lines = new List<string>();
        try
        {
            if (!File.Exists(path)) return lines;
            using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            using var reader = new StreamReader(stream);
            while (reader.ReadLine() is { } line) lines.Add(line);
        }
        catch (IOException)
        {
            // The log is informative only.
        }
        return lines;
    }

    private static string Shorten(string line) => line.Length <= 300 ? line : line[..300] + "…";

    private static string SafeName(string name) => string.Concat(name.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_'));

    [GeneratedRegex(@"^(\d{1,10})-[0-9a-f]{8}$")]
    private static partial Regex DataFolderName();

    private static string Section(string title, string[] lines) =>
        lines.Length == 0 ? string.Empty : $"\n--- last lines of the {title} ---\n{string.Join('\n', lines)}";

    /// <summary>The last lines a process wrote, kept in a bounded queue.</summary>
    private sealed class OutputTail(int capacity)
    {
        private readonly Queue<string> _lines = new();

        public void Add(string line)
        {
            lock (_lines)
            {
                if (_lines.Count == capacity) _lines.Dequeue();
                _lines.Enqueue(line);
            }
        }

        public string[] Lines()
        {
            lock (_lines) return [.. _lines];
        }
    }
}
