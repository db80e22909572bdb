using System.Diagnostics;
using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Broker;

/// <summary>An <c>exec</c> fault: the user's command run by <c>/bin/sh -c</c> with a time limit, its last lines kept.
/// KafkaPerf's own secrets are not in its environment.</summary>
internal static class FaultCommand
{
    private const int KeptLines = 20;

    internal static async Task<FaultAction> RunAsync(FaultSpec fault, Action fired, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo("/bin/sh")
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add(fault.Command!);
        ChildEnvironment.RemoveSecrets(start);
        var lines = new Queue<string>();
        void Keep(string? line)
        {
            if (line is null) return;
            lock (lines)
            {
                lines.Enqueue(line);
                if (lines.Count > KeptLines) lines.Dequeue();
            }
        }
        using var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        // The process's end, not its output's: a child it left in the background may hold the pipes open for long.
        var exited = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        process.Exited += (_, _) => exited.TrySetResult();
        process.OutputDataReceived += (_, e) => Keep(e.Data);
        process.ErrorDataReceived += (_, e) => Keep(e.Data);
        long began = Stopwatch.GetTimestamp();
        fired();
        process.Start();
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        int? exitCode = null;
        using (var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            limit.CancelAfter(fault.ExecLimit);
            try
            {
                await exited.Task.WaitAsync(limit.Token).ConfigureAwait(false);
                exitCode = process.ExitCode;
                // Its last lines may still be on their way.
                await Task.Delay(100, CancellationToken.None).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                try
                {
                    process.Kill(entireProcessTree: true);
                }
                catch (InvalidOperationException)
                {
                    // It ended meanwhile.
                }
                cancellationToken.ThrowIfCancellationRequested();
            }
        }
        double seconds = Stopwatch.GetElapsedTime(began).TotalSeconds;
        string output;
        lock (lines) output = string.Join('\n', lines);
        return new FaultAction(fault, null, exitCode is { } code
            ? string.Create(CultureInfo.InvariantCulture, $"ran '{fault.Command}': exit code {code} after {seconds:0.0} s")
            : string.Create(CultureInfo.InvariantCulture, $"ran '{fault.Command}': ended at its time limit of {fault.ExecLimit.TotalSeconds:0.#} s"))
        {
            ExitCode = exitCode,
            Output = output.Length == 0 ? null : output,
        };
    }
}
