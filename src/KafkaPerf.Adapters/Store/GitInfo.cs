using System.Diagnostics;

namespace KafkaPerf.Adapters.Store;

/// <summary>
/// The commit and branch a result was measured for: <c>KAFKAPERF_GIT_COMMIT</c> and <c>KAFKAPERF_GIT_BRANCH</c> when set
/// (a CI job that builds a detached checkout knows its branch better than git does), otherwise what git says of the
/// current folder's repository; nothing outside one, or without git. Read before a plan starts, never while it runs.
/// </summary>
public static class GitInfo
{
    /// <summary>The variable that names the commit.</summary>
    public const string CommitVariable = "KAFKAPERF_GIT_COMMIT";

    /// <summary>The variable that names the branch.</summary>
    public const string BranchVariable = "KAFKAPERF_GIT_BRANCH";

    /// <summary>Reads the commit and branch of <paramref name="folder"/>'s repository.</summary>
    /// <param name="folder">Where the run was started.</param>
    /// <returns>The commit and branch, each <see langword="null"/> when unknown.</returns>
    public static (string? Commit, string? Branch) Read(string folder)
    {
        var commit = Environment.GetEnvironmentVariable(CommitVariable) is { Length: > 0 } c ? c.Trim() : Git(folder, "rev-parse", "HEAD");
        var branch = Environment.GetEnvironmentVariable(BranchVariable) is { Length: > 0 } b ? b.Trim() : Git(folder, "rev-parse", "--abbrev-ref", "HEAD");
        return (commit, branch == "HEAD" ? null : branch);
    }

    private static string? Git(string folder, params string[] args)
    {
        var start = new ProcessStartInfo("git") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = folder };
        foreach (var arg in args) start.ArgumentList.Add(arg);
        try
        {
            using var process = Process.Start(start);
            if (process is null) return null;
            var output = process.StandardOutput.ReadToEndAsync();
            _ = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(5)))
            {
                process.Kill(entireProcessTree: true);
                return null;
            }
            return process.ExitCode == 0 && output.Result.Trim() is { Length: > 0 } text ? text : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // No git on this machine.
            return null;
        }
    }
}
