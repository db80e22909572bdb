using System.Diagnostics;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// The worker processes of <c>run --processes P</c>: P copies of this tool started as <c>worker</c>s of a group of the
/// run's own, on this machine, ended with the run (and ending by themselves when the run's process is gone).
/// </summary>
internal sealed class LocalWorkers : IDisposable
{
    private readonly List<Process> _processes = [];

    private LocalWorkers()
    {
    }

    /// <summary>The names the workers get: <c>local-1</c> … <c>local-P</c>.</summary>
    public static string NameOf(int index) => $"local-{index}";

    /// <summary>Starts <paramref name="count"/> workers of <paramref name="group"/>.</summary>
    /// <param name="count">Processes.</param>
    /// <param name="command">The command that starts a worker (the tool, its <c>worker</c> command and any option of its
    /// own); the group, the cluster and the worker's name are added.</param>
    /// <param name="bootstrap">The cluster.</param>
    /// <param name="security">Its security; credentials go to the workers in their environment, never on a command line.</param>
    /// <param name="group">The group.</param>
    /// <param name="log">Receives the workers' own lines, prefixed; nothing when <see langword="null"/>.</param>
    /// <returns>The workers.</returns>
    public static LocalWorkers Start(int count, IReadOnlyList<string> command, string bootstrap, KafkaSecurity security, string group, TextWriter? log)
    {
        var workers = new LocalWorkers();
        try
        {
            for (int i = 1; i <= count; i++) workers._processes.Add(StartOne(NameOf(i), command, bootstrap, security, group, log));
        }
        catch
        {
            workers.Dispose();
            throw;
        }
        return workers;
    }

    private static Process StartOne(string name, IReadOnlyList<string> command, string bootstrap, KafkaSecurity security, string group, TextWriter? log)
    {
        var start = new ProcessStartInfo(command[0])
        {
            UseShellExecute = false,
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            RedirectStandardInput = true,
        };
        foreach (var argument in command.Skip(1)) start.ArgumentList.Add(argument);
        foreach (var argument in new[] { "--group", group, "--bootstrap", bootstrap, "--name", name, "--parent", Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture) })
            start.ArgumentList.Add(argument);
        if (security.IsSecured)
        {
            start.ArgumentList.Add("--security");
            start.ArgumentList.Add(KafkaSecurity.CliName(security.Protocol));
            if (security.UsesSasl)
            {
                start.ArgumentList.Add("--sasl-mechanism");
                start.ArgumentList.Add(security.MechanismName);
                start.Environment[ChildEnvironment.UsernameVariable] = security.Username;
                start.Environment[ChildEnvironment.PasswordVariable] = security.RevealPassword();
            }
            if (security.CaFile is { } ca)
            {
                start.ArgumentList.Add("--ssl-ca");
                start.ArgumentList.Add(ca);
            }
        }
        var process = Process.Start(start) ?? throw new InvalidOperationException($"worker {name} did not start");
        process.StandardInput.Close();
        process.ErrorDataReceived += (_, e) => Forward(log, e.Data);
        process.OutputDataReceived += (_, e) => Forward(log, e.Data);
        process.BeginErrorReadLine();
        process.BeginOutputReadLine();
        return process;
    }

    private static void Forward(TextWriter? log, string? line)
    {
        if (log is null || string.IsNullOrEmpty(line)) return;
        lock (log) log.WriteLine(line);
    }

    /// <summary>The workers' process IDs, by name.</summary>
    public IReadOnlyDictionary<string, int> ProcessIds =>
        _processes.Select((p, i) => (NameOf(i + 1), p.Id)).ToDictionary(p => p.Item1, p => p.Item2);

    /// <summary>Stops every worker: SIGTERM, then a kill after 5 s.</summary>
    public void Dispose()
    {
        foreach (var process in _processes)
        {
            try
            {
                if (!process.HasExited) Posix.Terminate(process.Id);
            }
            catch (InvalidOperationException)
            {
            }
        }
        var deadline = Stopwatch.GetTimestamp();
        foreach (var process in _processes)
        {
            try
            {
                var left = TimeSpan.FromSeconds(5) - Stopwatch.GetElapsedTime(deadline);
                if (!process.WaitForExit(left > TimeSpan.Zero ? left : TimeSpan.Zero)) process.Kill(entireProcessTree: true);
                process.WaitForExit(2000);
            }
            catch (InvalidOperationException)
            {
            }
            process.Dispose();
        }
        _processes.Clear();
    }

    private static class Posix
    {
        [System.Runtime.InteropServices.DllImport("libc.so.6", SetLastError = true)]
        private static extern int kill(int pid, int sig);

        public static void Terminate(int pid) => _ = kill(pid, 15);
    }
}
