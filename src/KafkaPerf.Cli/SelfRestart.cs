using System.Runtime.InteropServices;
using System.Text;
using KafkaPerf.Adapters.Jvm;

namespace KafkaPerf.Cli;

/// <summary>
/// Makes sure this process starts with what CoreCLR reads only when a process starts: <c>DOTNET_EnableAlternateStackCheck</c>,
/// without which the JVM of the <c>java</c> clients cannot be hosted, and, for <c>--profile</c>, the variables that let
/// <c>perf</c> name .NET's compiled code (<see cref="ProfileVariables"/>). When one is missing the tool replaces itself
/// (<c>execve</c> of <c>/proc/self/exe</c> with the same arguments, same process ID) with the variables set.
/// </summary>
/// <remarks>Same PID, same terminal, same signals: Ctrl+C, SIGTERM and exit codes behave as if the tool had been started
/// with the variables. If the restart fails the tool goes on, and only what needs a variable refuses to run (with one line).</remarks>
internal static unsafe class SelfRestart
{
    /// <summary>Set to <c>1</c>, the tool never restarts itself (the Java clients then refuse to run without the variable).</summary>
    public const string NoRestartVariable = "KAFKAPERF_NO_RESTART";

    /// <summary>What <c>--profile</c> needs from the start: code compiled by the JIT mapped once, executable, where
    /// <c>perf</c> can see it (with write-xor-execute its pages are a file's, which <c>perf</c> cannot name), and a
    /// <c>/tmp/perf-PID.map</c> that names it (the profiler deletes it at the end).</summary>
    public static readonly IReadOnlyList<KeyValuePair<string, string>> ProfileVariables =
    [
        new("DOTNET_EnableWriteXorExecute", "0"),
        new("DOTNET_PerfMapEnabled", "3"),
        new(Adapters.Profiling.PerfProfiler.OwnsPerfMapVariable, "1"),
    ];

    /// <summary>Restarts the process with the variables set, when one is missing (Linux only).</summary>
    /// <param name="args">The command line, to see whether it asks for <c>--profile</c>.</param>
    public static void EnsureStartVariables(string[] args)
    {
        if (!OperatingSystem.IsLinux() || Environment.GetEnvironmentVariable(NoRestartVariable) == "1") return;
        var wanted = new List<KeyValuePair<string, string>> { new(JvmHost.AlternateStackCheckVariable, "1") };
        if (args.Contains("--profile", StringComparer.Ordinal)) wanted.AddRange(ProfileVariables);
        if (wanted.All(v => Environment.GetEnvironmentVariable(v.Key) == v.Value)) return;
        byte[] commandLine;
        try
        {
            commandLine = File.ReadAllBytes("/proc/self/cmdline");
        }
        catch (IOException)
        {
            return;
        }
        catch (UnauthorizedAccessException)
        {
            return;
        }
        byte[] environ;
        try
        {
            environ = File.ReadAllBytes("/proc/self/environ");
        }
        catch (IOException)
        {
            return;
        }
        catch (UnauthorizedAccessException)
        {
            return;
        }
        var arguments = Split(commandLine);
        // The environment byte for byte as the process got it (any encoding), minus the variables, plus the variables set.
        var prefixes = wanted.Select(v => Encoding.ASCII.GetBytes(v.Key + "=")).ToList();
        var environment = Split(environ).Where(entry => !prefixes.Any(prefix => entry.AsSpan().StartsWith(prefix))).ToList();
        environment.AddRange(wanted.Select(v => Encoding.ASCII.GetBytes($"{v.Key}={v.Value}\0")));

        var handles = new List<GCHandle>();
        try
        {
            var argv = Pin(arguments, handles);
            var envp = Pin(environment, handles);
            var path = Encoding.UTF8.GetBytes("/proc/self/exe\0");
            fixed (byte* p = path)
            fixed (IntPtr* a = argv)
            fixed (IntPtr* e = envp)
            {
                Console.Out.Flush();
                Console.Error.Flush();
                // Returns only when it failed: the tool then carries on without the variable.
                _ = execve(p, a, e);
            }
        }
        finally
        {
            foreach (var handle in handles) handle.Free();
        }
    }

    private static List<byte[]> Split(byte[] commandLine)
    {
        var arguments = new List<byte[]>();
        int start = 0;
        for (int i = 0; i < commandLine.Length; i++)
        {
            if (commandLine[i] != 0) continue;
            arguments.Add(commandLine[start..(i + 1)]);
            start = i + 1;
        }
        if (start < commandLine.Length) arguments.Add([.. commandLine[start..], 0]);
        return arguments;
    }

    private static IntPtr[] Pin(List<byte[]> strings, List<GCHandle> handles)
    {
        var pointers = new IntPtr[strings.Count + 1];
        for (int i = 0; i < strings.Count; i++)
        {
            var handle = GCHandle.Alloc(strings[i], GCHandleType.Pinned);
            handles.Add(handle);
            pointers[i] = handle.AddrOfPinnedObject();
        }
        return pointers;
    }

    [DllImport("libc.so.6", SetLastError = true)]
    private static extern int execve(byte* path, IntPtr* argv, IntPtr* envp);
}
