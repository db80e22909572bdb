using System.Diagnostics;
using System.Runtime.InteropServices;

namespace KafkaPerf.Cli;

/// <summary>
/// Ctrl+C (SIGINT) and SIGTERM. The first cancels <see cref="Token"/>: the command stops, saves what it has, deletes the
/// run's topic and stops the broker. If it has not ended after <see cref="Grace"/>, or a second signal comes, the process
/// ends at once: the emergency actions run first, side by side (the checkpoint marks the run in progress cancelled, reference tools and
/// containers are stopped, the embedded broker is killed and its data deleted), within one budget.
/// </summary>
internal sealed class Shutdown : IDisposable
{
    /// <summary>How long the command gets to end after the first signal: the whole process ends within 5 s.</summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(4);

    /// <summary>How long the emergency actions may take together.</summary>
    private static readonly TimeSpan EmergencyBudget = TimeSpan.FromMilliseconds(800);

    private readonly CancellationTokenSource _source = new();
    private readonly PosixSignalRegistration? _interrupt;
    private readonly PosixSignalRegistration? _terminate;
    private readonly Lock _lock = new();
    private readonly List<Func<string?>> _emergency = [];
    private readonly TextWriter _errors;
    private Timer? _grace;
    private int _signals;
    private int _ending;

    /// <summary>Starts listening for the signals.</summary>
    /// <param name="errors">Where the line about an immediate end goes.</param>
    public Shutdown(TextWriter errors)
    {
        _errors = errors;
        if (OperatingSystem.IsWindows() || OperatingSystem.IsLinux() || OperatingSystem.IsMacOS())
        {
            _interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal);
            _terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal);
        }
    }

    /// <summary>Cancelled by the first signal.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>The exit code of a process ended by the first signal: 130 for SIGINT, 143 for SIGTERM; 0 before.</summary>
    public int SignalExitCode { get; private set; }

    /// <summary>Registers something to do if the process must end at once; it returns a line for the user, or
    /// <see langword="null"/>. The actions run side by side; their lines are said in the reverse order of registration.</summary>
    /// <param name="action">The action.</param>
    /// <returns>Disposing it removes the action.</returns>
    public IDisposable OnImmediateEnd(Func<string?> action)
    {
        lock (_lock) _emergency.Add(action);
        return new Removal(this, action);
    }

    private void OnSignal(PosixSignalContext context)
    {
        // The process is not ended by the runtime: the command ends it, or ImmediateEnd does.
        context.Cancel = true;
        if (Interlocked.Increment(ref _signals) == 1)
        {
            SignalExitCode = context.Signal == PosixSignal.SIGTERM ? 143 : ExitCodes.Cancelled;
            _grace = new Timer(static state => ((Shutdown)state!).ImmediateEnd($"still not stopped {Grace.TotalSeconds:0} s after the signal"),
                this, Grace, Timeout.InfiniteTimeSpan);
            // Cancelling runs the registered callbacks (a JVM interrupt, a tool kill): not on the signal thread.
            ThreadPool.UnsafeQueueUserWorkItem(static source => source.Cancel(), _source, preferLocal: false);
        }
        else
        {
            ImmediateEnd("a second signal");
        }
    }

    private void ImmediateEnd(string why)
    {
        if (Interlocked.Exchange(ref _ending, 1) != 0) return;
        // A last resort should Environment.Exit itself hang (an exit handler that waits).
        new Thread(static () =>
        {
            Thread.Sleep(TimeSpan.FromSeconds(2));
            Process.GetCurrentProcess().Kill();
        }) { IsBackground = true }.Start();
        List<Func<string?>> actions;
        lock (_lock) actions = [.. _emergency];
        actions.Reverse();
        // Side by side, each on its own thread: the checkpoint's files and the broker's kill do not wait for each other, so
        // one that is slow on a loaded machine does not leave the other undone when the budget ends the process.
        var lines = new string?[actions.Count];
        var all = Task.WhenAll(actions.Select((action, i) => Task.Run(() =>
        {
            try
            {
                lines[i] = action();
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                lines[i] = $"({ex.GetType().Name}: {ex.Message})";
            }
        })));
        all.Wait(EmergencyBudget);
        string said = string.Concat(lines.Where(l => l is not null).Select(l => " " + l));
        try
        {
            _errors.WriteLine($"kafkaperf: stopped at once ({why}).{said}");
            _errors.Flush();
        }
        catch (IOException)
        {
            // Standard error is gone (a closed pipe): the exit code still says it.
        }
        Environment.Exit(SignalExitCode == 0 ? ExitCodes.Cancelled : SignalExitCode);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _interrupt?.Dispose();
        _terminate?.Dispose();
        _grace?.Dispose();
        _source.Dispose();
    }

    private sealed class Removal(Shutdown owner, Func<string?> action) : IDisposable
    {
        public void Dispose()
        {
            lock (owner._lock) owner._emergency.Remove(action);
        }
    }
}
