namespace KafkaPerf.Scenarios;

/// <summary>A named background thread that takes readings beside a run until it is told to stop; its loop waits on
/// <see cref="WaitForStop"/> between readings, so a stop ends the wait at once.</summary>
internal sealed class BackgroundLoop(string name) : IDisposable
{
    private readonly ManualResetEventSlim _stop = new();
    private Thread? _thread;

    /// <summary>Whether a stop was asked.</summary>
    public bool StopAsked => _stop.IsSet;

    /// <summary>Starts <paramref name="loop"/> on the thread.</summary>
    /// <param name="loop">The readings; it returns once <see cref="WaitForStop"/> says a stop was asked.</param>
    public void Start(ThreadStart loop)
    {
        _thread = new Thread(loop) { IsBackground = true, Name = name };
        _thread.Start();
    }

    /// <summary>Waits at most <paramref name="timeout"/> for a stop.</summary>
    /// <returns>Whether a stop was asked.</returns>
    public bool WaitForStop(TimeSpan timeout) => _stop.Wait(timeout);

    /// <summary>Asks the loop to stop and waits until it has.</summary>
    /// <returns>Whether it was running.</returns>
    public bool Stop()
    {
        if (_thread is null) return false;
        _stop.Set();
        _thread.Join();
        _thread = null;
        return true;
    }

    public void Dispose()
    {
        Stop();
        _stop.Dispose();
    }
}
