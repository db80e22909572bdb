using System.Diagnostics;
using System.Text;

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>Runs a program as a user would from a terminal, with its output in the order it was written (standard
/// output and error interleaved, as a terminal shows them), killed with its children when it outlives its time.</summary>
internal static class ChildProcess
{
    /// <summary>Runs <paramref name="file"/> to its end.</summary>
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
