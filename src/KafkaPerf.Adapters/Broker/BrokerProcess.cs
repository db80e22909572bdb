using System.Diagnostics;

namespace KafkaPerf.Adapters.Broker;

/// <summary>A node's JVM process: stopped (its pipe closed, killed when it does not end), how it ended, and what it wrote
/// (its output's tail, its log) for the error of a start that failed.</summary>
internal static class BrokerProcess
{
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(10);

    internal static async Task StopAsync(Process process, string dataDirectory)
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
            BrokerDataFolders.DeleteDirectory(dataDirectory);
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

    /// <summary>Copies a node's log out of the data folder, which goes when the cluster is disposed: to the path asked for
    /// (with the node's id for a cluster), else (a folder that cannot be written) to the temporary folder.</summary>
    /// <param name="node">The node that ended.</param>
    /// <param name="crashLogPath">Where its log is asked for (<see cref="EmbeddedKafkaBrokerOptions.CrashLogPath"/>).</param>
    /// <param name="nodes">How many nodes the cluster has.</param>
    /// <returns>Where the copy is; <see langword="null"/> when none could be written.</returns>
    internal static string? KeepLog(EmbeddedBrokerNode node, string? crashLogPath, int nodes)
    {
        var fallback = Path.Combine(Path.GetTempPath(), $"kafkaperf-broker-{node.ProcessId}.log");
        var asked = crashLogPath is null || nodes == 1 ? crashLogPath
            : Path.Combine(Path.GetDirectoryName(crashLogPath) ?? string.Empty,
                $"{Path.GetFileNameWithoutExtension(crashLogPath)}-node-{node.NodeId}{Path.GetExtension(crashLogPath)}");
        foreach (var target in asked is null ? [fallback] : new[] { asked, fallback })
        {
            try
            {
                var folder = Path.GetDirectoryName(Path.GetFullPath(target));
                if (folder is not null) Directory.CreateDirectory(folder);
                File.Copy(node.LogFile, target, overwrite: false);
                return target;
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Next place.
            }
        }
        return null;
    }

    /// <summary>The broker's log, read while the JVM may still hold it open.</summary>
    internal static List<string> ReadLog(string path)
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

    internal static string Shorten(string line) => line.Length <= 300 ? line : line[..300] + "…";

    internal static string Section(string title, string[] lines) =>
        lines.Length == 0 ? string.Empty : $"\n--- last lines of the {title} ---\n{string.Join('\n', lines)}";

    /// <summary>The last lines a process wrote, kept in a bounded queue.</summary>
    internal sealed class OutputTail(int capacity)
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
