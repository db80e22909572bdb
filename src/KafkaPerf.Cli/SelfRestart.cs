using System.Runtime.InteropServices;
using System.Text;
using KafkaPerf.Adapters.Jvm;

namespace KafkaPerf.Cli;

/// <summary>
/// Makes sure this process can host the JVM of the <c>java</c> clients: CoreCLR reads
/// <c>DOTNET_EnableAlternateStackCheck</c> only when the process starts, so when it is missing the tool replaces itself
/// (<c>execve</c> of <c>/proc/self/exe</c> with the same arguments, same process ID) with the variable set.
/// </summary>
/// <remarks>Same PID, same terminal, same signals: Ctrl+C, SIGTERM and exit codes behave as if the tool had been started
/// with the variable. If the restart fails the tool goes on, and only the Java clients refuse to run (with one line).</remarks>
internal static unsafe class SelfRestart
{
    /// <summary>Set to <c>1</c>, the tool never restarts itself (the Java clients then refuse to run without the variable).</summary>
    public const string NoRestartVariable = "KAFKAPERF_NO_RESTART";

    /// <summary>Restarts the process with the variable set, when it is missing (Linux only).</summary>
    public static void EnsureAlternateStackCheck()
    {
        if (!OperatingSystem.IsLinux() || JvmHost.CheckEnvironment() is null || Environment.GetEnvironmentVariable(NoRestartVariable) == "1") return;
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
        // The environment byte for byte as the process got it (any encoding), minus the variable, plus the variable set.
        var prefix = Encoding.ASCII.GetBytes(JvmHost.AlternateStackCheckVariable + "=");
        var environment = Split(environ).Where(entry => !entry.AsSpan().StartsWith(prefix)).ToList();
        environment.Add(Encoding.ASCII.GetBytes($"{JvmHost.AlternateStackCheckVariable}=1\0"));

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
