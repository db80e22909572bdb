using System.Diagnostics;
using System.Text;

namespace KafkaPerf.Adapters.References;

/// <summary>
/// A reference tool's process: started with redirected streams, its standard error kept (and watched line by line),
/// killed with its children when the run is cancelled, stalls or is disposed, so that no tool outlives its run.
/// </summary>
internal sealed class ToolProcess : IDisposable
{
    private const int MaxKeptErrorChars = 16_384;
    private readonly Process _process;
    private readonly StringBuilder _stderr = new();
    private readonly Action<string>? _onErrorLine;
    private readonly Task _stderrPump;

    private ToolProcess(Process process, Action<string>? onErrorLine)
    {
        _process = process;
        _onErrorLine = onErrorLine;
        _stderrPump = Task.Run(PumpErrorsAsync);
    }

    /// <summary>The process id.</summary>
    public int Id => _process.Id;

    /// <summary>The tool's standard input.</summary>
    public Stream Input => _process.StandardInput.BaseStream;

    /// <summary>The tool's standard output.</summary>
    public Stream Output => _process.StandardOutput.BaseStream;

    /// <summary>The tool's exit code (once it has exited).</summary>
    public int ExitCode => _process.ExitCode;

    /// <summary>Whether the tool has exited.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>What the tool wrote to standard error (the first 16 KiB), once it has exited.</summary>
    public string Errors
    {
        get
        {
            _stderrPump.Wait(TimeSpan.FromSeconds(5));
            lock (_stderr) return _stderr.ToString();
        }
    }

    /// <summary>Starts a tool.</summary>
    /// <param name="file">The executable.</param>
    /// <param name="arguments">Its arguments, one per entry (never through a shell).</param>
    /// <param name="environment">Variables to set for it.</param>
    /// <param name="onErrorLine">Called with each line of standard error as it arrives.</param>
    /// <returns>The running tool.</returns>
    /// <exception cref="InvalidOperationException">The tool could not be started; the message says which.</exception>
    public static ToolProcess Start(string file, IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null,
        Action<string>? onErrorLine = null)
    {
        var start = new ProcessStartInfo(file)
        {
            RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        foreach (var (name, value) in environment ?? new Dictionary<string, string>()) start.Environment[name] = value;
        // The tool gets its credentials from a file of its own; the user's KAFKAPERF_SASL_* variables stay with KafkaPerf.
        ChildEnvironment.RemoveSecrets(start);
        try
        {
            return new ToolProcess(Process.Start(start) ?? throw new InvalidOperationException($"'{file}' did not start."), onErrorLine);
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException($"'{file}' could not be started: {ex.Message}", ex);
        }
    }

    /// <summary>Waits for the tool to exit, killing it on cancellation or after <paramref name="timeout"/>.</summary>
    /// <param name="timeout">The longest wait.</param>
    /// <param name="cancellationToken">Kills the tool and throws.</param>
    /// <returns><see langword="true"/> when it exited by itself; <see langword="false"/> when it was killed for taking too long.</returns>
    public bool WaitForExit(TimeSpan timeout, CancellationToken cancellationToken)
    {
        long deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        while (!_process.WaitForExit(50))
        {
            if (cancellationToken.IsCancellationRequested)
            {
                Kill();
                cancellationToken.ThrowIfCancellationRequested();
            }
            if (Stopwatch.GetTimestamp() > deadline)
            {
                Kill();
                return false;
            }
        }
        _process.WaitForExit();
        // Ctrl+C reaches the tool too (same process group) and may end it first: the run was cancelled, not failed.
        cancellationToken.ThrowIfCancellationRequested();
        return true;
    }

    /// <summary>Kills the tool as soon as <paramref name="cancellationToken"/> fires or <paramref name="timeout"/> passes,
    /// so that a blocking read of its output or write to its input ends too.</summary>
    /// <param name="timeout">The longest the tool may run from now.</param>
    /// <param name="cancellationToken">Ctrl+C or SIGTERM.</param>
    /// <returns>Disposing it disarms the guard.</returns>
    public IDisposable KillOn(TimeSpan timeout, CancellationToken cancellationToken)
    {
        var registration = cancellationToken.Register(Kill);
        var timer = new Timer(_ =>
        {
            TimedOut = true;
            Kill();
        }, null, timeout, Timeout.InfiniteTimeSpan);
        return new Guard(registration, timer);
    }

    /// <summary>Whether the guard of <see cref="KillOn"/> killed the tool for taking too long.</summary>
    public bool TimedOut { get; private set; }

    private sealed class Guard(CancellationTokenRegistration registration, Timer timer) : IDisposable
    {
        public void Dispose()
        {
            registration.Dispose();
            timer.Dispose();
        }
    }

    /// <summary>The last lines of standard error, as one line, for an error message.</summary>
    /// <returns>Up to 300 characters.</returns>
    public string ErrorTail() => Tail(Errors);

    /// <summary>The end of a tool's output as one line, for an error message.</summary>
    /// <param name="output">What the tool wrote.</param>
    /// <returns>Up to 300 characters.</returns>
    public static string Tail(string output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var text = output.ReplaceLineEndings(" ").Trim();
        return text.Length <= 300 ? text : "…" + text[^300..];
    }

    public void Dispose()
    {
        Kill();
        _process.Dispose();
    }

    private void Kill()
    {
        try
        {
            if (!_process.HasExited) _process.Kill(entireProcessTree: true);
            _process.WaitForExit(5000);
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
    }

    private async Task PumpErrorsAsync()
    {
        var reader = _process.StandardError;
        while (await reader.ReadLineAsync().ConfigureAwait(false) is { } line)
        {
            _onErrorLine?.Invoke(line);
            lock (_stderr)
            {
                if (_stderr.Length < MaxKeptErrorChars) _stderr.AppendLine(line);
            }
        }
    }
}
