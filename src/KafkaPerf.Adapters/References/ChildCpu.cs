using System.Globalization;
using System.Runtime.InteropServices;
using KafkaPerf.Measurement;

namespace KafkaPerf.Adapters.References;

/// <summary>
/// A reference tool's CPU time over its timed section, read where Linux keeps it: the CPU of this process's children
/// that have ended (<c>getrusage(RUSAGE_CHILDREN)</c>) grows by the tool's whole life once it is reaped, and the tool's
/// own <c>/proc/PID/stat</c> says what it used before its timed section started (its start and connection).
/// </summary>
/// <remarks>Children of this process that end during the tool's life count too: in the tool's process (one run at a time)
/// there are none; the broker lives on.</remarks>
internal static partial class ChildCpu
{
    private const int RusageChildren = -1;
    private static readonly double TicksPerSecond = 100; // USER_HZ: 100 on every Linux architecture the runtime supports

    /// <summary>User and system CPU seconds of the children reaped so far; <see langword="null"/> where there is no
    /// <c>getrusage</c> (Windows).</summary>
    public static (double User, double System)? Reaped()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS()) return null;
        if (GetRusage(RusageChildren, out var usage) != 0) return null;
        return (usage.UserSeconds + usage.UserMicros / 1e6, usage.SystemSeconds + usage.SystemMicros / 1e6);
    }

    /// <summary>User and system CPU seconds a running process used so far, from <c>/proc/PID/stat</c>; <see langword="null"/>
    /// when it cannot be read.</summary>
    /// <param name="pid">The process.</param>
    public static (double User, double System)? Of(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // The command name (field 2) is in parentheses and may hold spaces: fields count from after its ')'.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return (long.Parse(fields[11], CultureInfo.InvariantCulture) / TicksPerSecond, long.Parse(fields[12], CultureInfo.InvariantCulture) / TicksPerSecond);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>The tool's resources over its timed section: the growth of <see cref="Reaped"/> over its life less what it
    /// used before the section; <see langword="null"/> when a reading is missing.</summary>
    /// <param name="reapedBefore">Read before the tool started.</param>
    /// <param name="usedBeforeSection">The tool's own reading when the section started.</param>
    /// <param name="reapedAfter">Read after the tool was reaped.</param>
    public static RunResources? Section((double User, double System)? reapedBefore, (double User, double System)? usedBeforeSection,
        (double User, double System)? reapedAfter)
    {
        if (reapedBefore is not { } before || usedBeforeSection is not { } early || reapedAfter is not { } after) return null;
        return new RunResources
        {
            CpuUserSeconds = Math.Max(0, after.User - before.User - early.User),
            CpuSystemSeconds = Math.Max(0, after.System - before.System - early.System),
            // A C tool: no .NET heap of its own.
            Gen0Collections = 0, Gen1Collections = 0, Gen2Collections = 0, AllocatedBytes = 0,
        };
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct Rusage
    {
        public long UserSeconds;
        public long UserMicros;
        public long SystemSeconds;
        public long SystemMicros;
        public long MaxRss, IxRss, IdRss, IsRss, MinFlt, MajFlt, NSwap, InBlock, OuBlock, MsgSnd, MsgRcv, NSignals, NVcsw, NIvcsw;
    }

    [LibraryImport("libc", EntryPoint = "getrusage")]
    private static partial int GetRusage(int who, out Rusage usage);
}
