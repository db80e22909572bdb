using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Running;

/// <summary>Turns <see cref="ClusterConnection.BrokerExited"/> into a token that ends the run in progress, and the
/// line that says what happened.</summary>
internal sealed class BrokerWatch : IDisposable
{
    private readonly CancellationTokenSource _source = new();
    private volatile BrokerExit? _exit;
    private volatile bool _disposed;

    /// <summary>Starts watching; a <see langword="null"/> task watches nothing.</summary>
    /// <param name="exited">Completes with one line when the broker process has ended.</param>
    public BrokerWatch(Task<BrokerExit>? exited)
    {
        exited?.ContinueWith(static (task, state) => ((BrokerWatch)state!).OnExited(task), this,
            CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
    }

    /// <summary>Cancelled once the broker has exited.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>How the broker ended; <see langword="null"/> while it runs.</summary>
    public BrokerExit? Exit => _exit;

    private void OnExited(Task<BrokerExit> task)
    {
        _exit = task.IsCompletedSuccessfully ? task.Result : new BrokerExit("the broker process ended", null);
        if (_disposed) return;
        try
        {
            _source.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The plan ended meanwhile.
        }
    }

    public void Dispose()
    {
        _disposed = true;
        _source.Dispose();
    }
}
