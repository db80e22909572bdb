using System.Diagnostics;
using System.Text;

namespace KafkaPerf.Cli.Tests;

/// <summary>Runs dotnet-kafkaperf as a child process, as a user would, with its own environment.</summary>
internal sealed class CliProcess : IDisposable
{
    private readonly StringBuilder _stdout = new();
    private readonly StringBuilder _stderr = new();
    private readonly TaskCompletionSource<string> _firstLine = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private CliProcess(Process process) => Process = process;

    public Process Process { get; }

    public string Stdout { get { lock (_stdout) return _stdout.ToString(); } }

    public string Stderr { get { lock (_stderr) return _stderr.ToString(); } }

    /// <summary>The first line the process wrote to standard output.</summary>
    public Task<string> FirstLine => _firstLine.Task;

    public static CliProcess Start(IReadOnlyDictionary<string, string?>? environment, params string[] args) => StartIn(null, environment, args);

    /// <summary>Starts the tool in a working directory of the test's choosing.</summary>
    public static CliProcess StartIn(string? workingDirectory, IReadOnlyDictionary<string, string?>? environment, params string[] args)
    {
        // "setsid" as the first argument starts the tool as the leader of a process group of its own; "default-signals"
        // starts it with SIGINT handled as a terminal would deliver it (a test host started in the background may have
        // inherited SIGINT ignored, and .NET then ignores it too).
        bool ownGroup = args.Length > 0 && args[0] == "setsid";
        bool defaultSignals = args.Length > 0 && args[0] == "default-signals";
        var start = new ProcessStartInfo(ownGroup ? "setsid" : defaultSignals ? "env" : "dotnet")
        {
            RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? string.Empty,
        };
        if (defaultSignals) start.ArgumentList.Add("--default-signal=INT");
        if (ownGroup || defaultSignals) start.ArgumentList.Add("dotnet");
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "dotnet-kafkaperf.dll"));
        foreach (var arg in ownGroup || defaultSignals ? args[1..] : args) start.ArgumentList.Add(arg);
        foreach (var (key, value) in environment ?? new Dictionary<string, string?>())
        {
            if (value is null) start.Environment.Remove(key);
            else start.Environment[key] = value;
        }
        var cli = new CliProcess(new Process { StartInfo = start });
        cli.Process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null) { cli._firstLine.TrySetException(new InvalidOperationException("The process ended without a line on stdout. stderr: " + cli.Stderr)); return; }
            lock (cli._stdout) cli._stdout.AppendLine(e.Data);
            cli._firstLine.TrySetResult(e.Data);
        };
        cli.Process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null) lock (cli._stderr) cli._stderr.AppendLine(e.Data);
        };
        cli.Process.Start();
        cli.Process.BeginOutputReadLine();
        cli.Process.BeginErrorReadLine();
        return cli;
    }

    /// <summary>Runs to the end and returns the exit code.</summary>
    public static Task<(int Exit, string Stdout, string Stderr)> RunAsync(IReadOnlyDictionary<string, string?>? environment, params string[] args) =>
        RunInAsync(null, environment, args);

    /// <summary>Runs to the end in a working directory of the test's choosing.</summary>
    public static async Task<(int Exit, string Stdout, string Stderr)> RunInAsync(string? workingDirectory, IReadOnlyDictionary<string, string?>? environment, params string[] args)
    {
        using var cli = StartIn(workingDirectory, environment, args);
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(4));
        await cli.Process.WaitForExitAsync(timeout.Token);
        cli.Process.WaitForExit(); // drains the asynchronous readers
        return (cli.Process.ExitCode, cli.Stdout, cli.Stderr);
    }

    /// <summary>Waits until the tool has written <paramref name="text"/> to standard error; fails if it ends first or the
    /// time runs out.</summary>
    public async Task WaitForAsync(string text, TimeSpan timeout)
    {
        var watch = Stopwatch.StartNew();
        while (!Stderr.Contains(text, StringComparison.Ordinal))
        {
            Xunit.Assert.False(Process.HasExited, $"the tool ended before '{text}': {Stderr}");
            Xunit.Assert.True(watch.Elapsed < timeout, $"no '{text}' after {timeout}: {Stderr}");
            await Task.Delay(20, Xunit.TestContext.Current.CancellationToken);
        }
    }

    public void Dispose()
    {
        if (!Process.HasExited) Process.Kill(entireProcessTree: true);
        Process.Dispose();
    }
}
