using System.Diagnostics;
using System.Text;

namespace KafkaPerf.Tests.Shared;

/// <summary>Runs the tools a user would (dotnet pack, dotnet tool install, the installed tool) from tests; shared by the
/// test projects that link this file.</summary>
internal static class ExternalProcess
{
    /// <summary>The repository root: the first folder above the test binaries that holds KafkaPerf.sln.</summary>
    public static string RepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "KafkaPerf.sln"))) return dir.FullName;
        }
        throw new InvalidOperationException("The repository root was not found above " + AppContext.BaseDirectory);
    }

    /// <summary>Runs a program to its end, killed (with its children) past <paramref name="timeout"/>.</summary>
    /// <param name="file">The program.</param>
    /// <param name="timeout">How long it may take.</param>
    /// <param name="args">Its arguments.</param>
    /// <returns>Its exit code (-1 when killed) and its standard output and error.</returns>
    public static (int Exit, string Stdout, string Stderr) Run(string file, TimeSpan timeout, params string[] args)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = Path.GetTempPath() };
        foreach (var arg in args) start.ArgumentList.Add(arg);
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            return (-1, string.Empty, $"{file} {string.Join(' ', args)} did not end within {timeout}");
        }
        return (process.ExitCode, stdout.Result, stderr.Result);
    }

    /// <summary>Runs <paramref name="file"/> to its end, within 8 minutes.</summary>
    /// <param name="directory">Its working directory.</param>
    /// <param name="environment">Variables to set (a null value removes one).</param>
    /// <param name="file">The program.</param>
    /// <param name="args">Its arguments.</param>
    /// <returns>Its exit code and everything it wrote.</returns>
    public static async Task<(int Exit, string Output)> RunAsync(string directory, IReadOnlyDictionary<string, string?> environment, string file, params string[] args)
    {
        var (exit, _, output) = await RunAsync(directory, environment, TimeSpan.FromMinutes(8), file, args);
        return (exit, output);
    }

    /// <summary>Runs <paramref name="file"/> to its end, with its output in the order it was written (standard output and
    /// error interleaved, as a terminal shows them); one that outlives <paramref name="timeout"/> is killed with its
    /// children and the test fails.</summary>
    /// <param name="directory">Its working directory.</param>
    /// <param name="environment">Variables to set on top of this process's (a null value removes one).</param>
    /// <param name="timeout">How long it may take; past it, it is killed and the test fails.</param>
    /// <param name="file">The program.</param>
    /// <param name="args">Its arguments.</param>
    /// <returns>Its exit code, its standard output, and everything it wrote.</returns>
    public static async Task<(int Exit, string Stdout, string Output)> RunAsync(string directory, IReadOnlyDictionary<string, string?> environment,
        TimeSpan timeout, string file, params string[] args)
    {
        var start = new ProcessStartInfo(file)
        {
            WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false,
        };
        foreach (var arg in args) start.ArgumentList.Add(arg);
        foreach (var (key, value) in environment)
        {
            if (value is null) start.Environment.Remove(key);
            else start.Environment[key] = value;
        }
        var stdout = new StringBuilder();
        var output = new StringBuilder();
        using var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null) return;
            lock (output)
            {
                stdout.Append(e.Data).Append('\n');
                output.Append(e.Data).Append('\n');
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is null) return;
            lock (output) output.Append(e.Data).Append('\n');
        };
        process.Start();
        // Nothing reads a terminal here: a command that asked for input gets end-of-file, not a hang.
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None);
            lock (output) Assert.Fail($"{file} {string.Join(' ', args)} did not end within {timeout}; its output:\n{output}");
        }
        process.WaitForExit(); // drains the asynchronous readers
        lock (output) return (process.ExitCode, stdout.ToString(), output.ToString());
    }
}
