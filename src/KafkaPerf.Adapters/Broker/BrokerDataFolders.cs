using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace KafkaPerf.Adapters.Broker;

/// <summary>The embedded brokers' data folders: marked as a broker's, deleted with retries, and swept when the process that
/// owned them is gone.</summary>
internal static partial class BrokerDataFolders
{
    /// <summary>The file that marks a folder as a broker's: the sweep deletes no folder without it.</summary>
    internal const string MarkerFile = ".kafkaperf-broker";

    /// <summary>Deletes broker data folders (named <c>pid-token</c>, with the marker file) whose owning process is gone.</summary>
    internal static void RemoveAbandonedDataDirectories(string root)
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

    internal static void DeleteDirectory(string directory)
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

    internal static string SafeName(string name) => string.Concat(name.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_'));

    [GeneratedRegex(@"^(\d{1,10})-[0-9a-f]{8}$")]
    private static partial Regex DataFolderName();
}
