using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace KafkaPerf.Adapters.Broker;

/// <summary>One node of an <see cref="EmbeddedKafkaBroker"/>: its JVM, address and data folder.</summary>
public sealed class EmbeddedBrokerNode
{
    private const int SigKill = 9;
    private const int SigCont = 18;
    private const int SigStop = 19;
    private NodeChannel _channel;

    internal EmbeddedBrokerNode(int nodeId, bool isController, Process process, NodeChannel channel, string bootstrapServer, string dataDirectory,
        IReadOnlyDictionary<string, string> config)
    {
        NodeId = nodeId;
        IsController = isController;
        Process = process;
        ProcessId = process.Id;
        _channel = channel;
        BootstrapServer = bootstrapServer;
        DataDirectory = dataDirectory;
        Config = config;
        Exited = process.WaitForExitAsync();
    }

    /// <summary>The node id (<c>node.id</c>), from 1.</summary>
    public int NodeId { get; }

    /// <summary>Whether the node is a controller (a voter of the KRaft quorum) as well as a broker.</summary>
    public bool IsController { get; }

    /// <summary>The JVM's process id (a new one once the node was started again).</summary>
    public int ProcessId { get; private set; }

    /// <summary>Its client address, <c>127.0.0.1:port</c>.</summary>
    public string BootstrapServer { get; }

    /// <summary>Its data folder (log segments, metadata, log file), inside the cluster's.</summary>
    public string DataDirectory { get; }

    /// <summary>Its <c>log.dirs</c>: one folder per partition replica, <c>TOPIC-N</c>.</summary>
    public string LogDirectory => Path.Combine(DataDirectory, EmbeddedKafkaBroker.LogFolderName);

    /// <summary>Its log file.</summary>
    public string LogFile => Path.Combine(DataDirectory, "broker.log");

    /// <summary>Its <c>server.properties</c>, as written.</summary>
    public IReadOnlyDictionary<string, string> Config { get; }

    /// <summary>Completes when the JVM has ended, whatever the reason (the current JVM's, once the node was started again).</summary>
    public Task Exited { get; private set; }

    /// <summary>Whether the node is stopped with SIGSTOP (a fault), until <see cref="Resume"/>.</summary>
    public bool IsPaused { get; private set; }

    /// <summary>Whether the JVM's end was a fault's doing (a kill, a graceful stop), not a crash.</summary>
    internal bool ExitExpected { get; set; }

    internal Process Process { get; private set; }

    internal int ExitCode => Process.ExitCode;

    /// <summary>Whether the node's JVM runs and answers (not ended, not paused).</summary>
    internal bool IsServing => !Exited.IsCompleted && !IsPaused;

    /// <summary>SIGKILL, and a wait of at most a second.</summary>
    internal void Kill()
    {
        try
        {
            if (!Process.HasExited) Process.Kill(entireProcessTree: true);
            Process.WaitForExit(1000);
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception or AggregateException)
        {
            // Gone already.
        }
    }

    /// <summary>SIGKILL now, with one system call (a fault's moment: <see cref="Kill"/> first looks for child processes,
    /// which takes milliseconds), then a wait of at most a second.</summary>
    internal void KillAtOnce()
    {
        SignalKill();
        Kill();
    }

    /// <summary>SIGKILL with one system call, without waiting for the JVM to be gone.</summary>
    internal void SignalKill() => _ = Signal(ProcessId, SigKill);

    /// <summary>SIGSTOP: the JVM stops where it is, its connections stay open. Marked paused first, so that nobody asks
    /// it a question from the moment <paramref name="fired"/> is called.</summary>
    internal void Pause(Action fired)
    {
        IsPaused = true;
        fired();
        if (Signal(ProcessId, SigStop) == 0) return;
        IsPaused = false;
        throw new InvalidOperationException($"SIGSTOP to node {NodeId} (pid {ProcessId}) failed: errno {Marshal.GetLastPInvokeError()}.");
    }

    /// <summary>SIGCONT after <see cref="Pause"/>.</summary>
    internal void Resume()
    {
        if (!IsPaused) return;
        if (Signal(ProcessId, SigCont) != 0) throw new InvalidOperationException($"SIGCONT to node {NodeId} (pid {ProcessId}) failed: errno {Marshal.GetLastPInvokeError()}.");
        IsPaused = false;
    }

    /// <summary>Asks the JVM for a graceful shutdown that keeps its data (Kafka's controlled shutdown runs).</summary>
    internal void StopGracefully() => _channel.Send("stop");

    /// <summary>Asks the node's admin client a question (see NodeCommands.java) and returns its answer.</summary>
    /// <exception cref="InvalidOperationException">The node answered with an error.</exception>
    /// <exception cref="TimeoutException">No answer within <paramref name="timeout"/>.</exception>
    internal Task<string> AskAsync(string command, TimeSpan timeout, CancellationToken cancellationToken) => _channel.AskAsync(command, timeout, cancellationToken);

    /// <summary>The node's new JVM, once it was started again on the same data.</summary>
    internal void Replace(Process process, NodeChannel channel)
    {
        Process.Dispose();
        Process = process;
        ProcessId = process.Id;
        _channel = channel;
        IsPaused = false;
        ExitExpected = false;
        Exited = process.WaitForExitAsync();
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Signal(int pid, int signal);
}

/// <summary>The lines a node's JVM and its owner exchange: commands on its stdin, answers on its stdout
/// (<c>KAFKAPERF-ANSWER ID ok|error TEXT</c>).</summary>
internal sealed class NodeChannel
{
    internal const string AnswerPrefix = "KAFKAPERF-ANSWER ";
    private readonly ConcurrentDictionary<long, TaskCompletionSource<string>> _pending = new();
    private readonly object _writeLock = new();
    private long _next;

    internal Process? Process { get; set; }

    internal void Send(string line)
    {
        lock (_writeLock)
        {
            var input = Process!.StandardInput;
            input.WriteLine(line);
            input.Flush();
        }
    }

    internal async Task<string> AskAsync(string command, TimeSpan timeout, CancellationToken cancellationToken)
    {
        long id = Interlocked.Increment(ref _next);
        var answer = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        _pending[id] = answer;
        try
        {
            Send(id.ToString(CultureInfo.InvariantCulture) + " " + command);
            return await answer.Task.WaitAsync(timeout, cancellationToken).ConfigureAwait(false);
        }
        catch (IOException ex)
        {
            throw new InvalidOperationException($"the node's JVM is gone ({ex.Message})", ex);
        }
        finally
        {
            _pending.TryRemove(id, out _);
        }
    }

    /// <summary>Takes an answer line from the JVM's stdout.</summary>
    internal void OnAnswer(string line)
    {
        var parts = line[AnswerPrefix.Length..].Split(' ', 3);
        if (parts.Length < 2 || !long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out long id) || !_pending.TryGetValue(id, out var answer)) return;
        var text = parts.Length == 3 ? parts[2] : string.Empty;
        if (parts[1] == "ok") answer.TrySetResult(text);
        else answer.TrySetException(new InvalidOperationException(text));
    }
}
