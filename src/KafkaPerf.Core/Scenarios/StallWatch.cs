using System.Diagnostics;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Cancels its token when what it watches stops making progress for the stall timeout, so that no wait of a run -
/// a send blocked on a full queue, a flush, a client's blocking call - lasts longer than that. The run's own token
/// cancels it too.
/// </summary>
/// <remarks>A timer looks at the progress counter ten times a second, off the sending thread: the hot path pays nothing.
/// Adapters see the token through <see cref="Clients.ProducerSpec.Cancellation"/> and end their blocking calls on it.</remarks>
internal sealed class StallWatch : IDisposable
{
    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(100);
    private readonly CancellationTokenSource _source;
    private readonly TimeSpan _timeout;
    private readonly Timer _timer;
    private readonly object _gate = new();
    private string? _activity;
    private Func<long>? _progress;
    private long _last;
    private long _lastChange;
    private volatile string? _stalled;

    /// <summary>Starts a watch that is idle until <see cref="Watch"/> names what to watch.</summary>
    /// <param name="timeout">How long progress may stand still.</param>
    /// <param name="cancellationToken">The run's token: cancelling it cancels <see cref="Token"/> too.</param>
    public StallWatch(TimeSpan timeout, CancellationToken cancellationToken)
    {
        _timeout = timeout;
        _source = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _timer = new Timer(static state => ((StallWatch)state!).Check(), this, Period, Period);
    }

    /// <summary>Cancelled when the watched progress stalls or the run is cancelled.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>What stalled (e.g. <c>flushing</c>), once the watch has fired; <see langword="null"/> before.</summary>
    public string? Stalled => _stalled;

    /// <summary>How long progress may stand still.</summary>
    public TimeSpan Timeout => _timeout;

    /// <summary>Watches <paramref name="progress"/> from now on, as <paramref name="activity"/>.</summary>
    /// <param name="activity">What is being waited for, for the error (<c>sending</c>, <c>flushing</c>).</param>
    /// <param name="progress">A counter that grows while things move (acknowledgements, records received).</param>
    public void Watch(string activity, Func<long> progress)
    {
        ArgumentNullException.ThrowIfNull(progress);
        lock (_gate)
        {
            _activity = activity;
            _progress = progress;
            _last = progress();
            _lastChange = Stopwatch.GetTimestamp();
        }
    }

    /// <summary>Watches nothing until the next <see cref="Watch"/>.</summary>
    public void Idle()
    {
        lock (_gate) _progress = null;
    }

    /// <summary>Gives up on <paramref name="activity"/> now (a wait of the caller's own saw the stall first): the token is
    /// cancelled, so that disposing the clients waits for nothing.</summary>
    /// <param name="activity">What stalled.</param>
    public void GiveUp(string activity)
    {
        lock (_gate)
        {
            _stalled ??= activity;
            _progress = null;
        }
        try
        {
            _source.Cancel();
        }
        catch (AggregateException)
        {
            // A client's cancellation callback failed; the token is cancelled all the same.
        }
    }

    /// <summary>The error of a run whose wait this watch ended: what stalled and for how long.</summary>
    /// <param name="detail">How far the run got, e.g. <c>812 of 1000 records acknowledged</c>.</param>
    /// <returns>One line.</returns>
    public string Describe(string detail) =>
        $"stalled while {Stalled ?? "waiting"}: {detail}, nothing new for {_timeout.TotalSeconds:0.#} s (--stall-timeout)";

    private void Check()
    {
        lock (_gate)
        {
            if (_progress is null || _stalled is not null) return;
            long now = _progress();
            if (now != _last)
            {
                _last = now;
                _lastChange = Stopwatch.GetTimestamp();
                return;
            }
            if (Stopwatch.GetElapsedTime(_lastChange) <= _timeout) return;
            _stalled = _activity;
        }
        try
        {
            _source.Cancel();
        }
        catch (AggregateException)
        {
            // A client's cancellation callback failed; the token is cancelled all the same.
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _timer.Dispose();
        _source.Dispose();
    }
}
