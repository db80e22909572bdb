using System.Diagnostics;

namespace KafkaPerf.Adapters.Broker;

/// <summary>One node of an <see cref="EmbeddedKafkaBroker"/>: its JVM, address and data folder.</summary>
public sealed class EmbeddedBrokerNode
{
    internal EmbeddedBrokerNode(int nodeId, bool isController, Process process, string bootstrapServer, string dataDirectory,
        IReadOnlyDictionary<string, string> config)
    {
        NodeId = nodeId;
        IsController = isController;
        Process = process;
        ProcessId = process.Id;
        BootstrapServer = bootstrapServer;
        DataDirectory = dataDirectory;
        Config = config;
        Exited = process.WaitForExitAsync();
    }

    /// <summary>The node id (<c>node.id</c>), from 1.</summary>
    public int NodeId { get; }

    /// <summary>Whether the node is a controller (a voter of the KRaft quorum) as well as a broker.</summary>
    public bool IsController { get; }

    /// <summary>The JVM's process id.</summary>
    public int ProcessId { get; }

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

    /// <summary>Completes when the JVM has ended, whatever the reason.</summary>
    public Task Exited { get; }

    internal Process Process { get; }

    internal int ExitCode => Process.ExitCode;

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
}
