using System.Diagnostics;

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

    /// <summary>Runs a program to its end (at most 8 minutes) and returns its exit code and its output, stdout then stderr.</summary>
    /// <param name="directory">Its working directory.</param>
    /// <param name="environment">Variables to set (a null value removes one).</param>
    /// <param name="file">The program.</param>
    /// <param name="args">Its arguments.</param>
    public static async Task<(int Exit, string Output)> RunAsync(string directory, IReadOnlyDictionary<string, string?> environment, string file, params string[] args)
    {
        var start = new ProcessStartInfo(file)
        {
            WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        foreach (var arg in args) start.ArgumentList.Add(arg);
        foreach (var (key, value) in environment)
        {
            if (value is null) start.Environment.Remove(key);
            else start.Environment[key] = value;
        }
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(8));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await stdout + await stderr);
    }
}
