using System.Globalization;
using System.Runtime.InteropServices;

namespace KafkaPerf.Adapters.Network;

/// <summary>CPU time of single threads (Linux): a thread's own id, and what <c>/proc/self/task/TID/schedstat</c> says it ran
/// (nanoseconds on a CPU, user and system together).</summary>
internal static partial class ThreadCpu
{
    /// <summary>The calling thread's id as the kernel knows it; 0 where it cannot be had.</summary>
    internal static int CurrentThreadId()
    {
        if (!OperatingSystem.IsLinux()) return 0;
        try
        {
            return gettid();
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return 0;
        }
    }

    /// <summary>Nanoseconds thread <paramref name="threadId"/> of this process ran; <see langword="null"/> when it is gone or
    /// cannot be read.</summary>
    internal static long? Nanoseconds(int threadId)
    {
        if (threadId == 0) return null;
        try
        {
            var text = File.ReadAllText($"/proc/self/task/{threadId.ToString(CultureInfo.InvariantCulture)}/schedstat");
            int space = text.IndexOf(' ', StringComparison.Ordinal);
            return long.TryParse(space < 0 ? text : text[..space], NumberStyles.None, CultureInfo.InvariantCulture, out var ns) ? ns : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Raises the calling thread's scheduling weight (Linux: its nice value, -10) so that a delayed chunk goes
    /// out when due even while the machine's cores are busy; allowed to root (or with CAP_SYS_NICE) only, and left as it
    /// is otherwise.</summary>
    /// <returns>Whether it was raised.</returns>
    internal static bool RaisePriority()
    {
        if (!OperatingSystem.IsLinux()) return false;
        try
        {
            return setpriority(PrioProcess, (uint)gettid(), RaisedNice) == 0;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    private const int PrioProcess = 0;
    private const int RaisedNice = -10;

    [LibraryImport("libc", EntryPoint = "setpriority")]
    private static partial int setpriority(int which, uint who, int priority);

    [LibraryImport("libc", EntryPoint = "gettid")]
    private static partial int gettid();
}
