using KafkaPerf.Clients;

namespace KafkaPerf.Scenarios;

/// <summary>What every scenario sink shares: the assigned and completed signals, and the first consumer error
/// (which also completes the wait, so a broken consumer never hangs a run).</summary>
internal abstract class SignallingRecordSink : IRecordSink, IDisposable
{
    private string? _error;

    public ManualResetEventSlim Assigned { get; } = new();

    public ManualResetEventSlim Completed { get; } = new();

    public string? Error => Volatile.Read(ref _error);

    public virtual void OnAssigned() => Assigned.Set();

    public abstract void OnRecord(long key, ReadOnlySpan<byte> value);

    public abstract void OnRecordPosition(int partition, long offset);

    public void OnError(string reason)
    {
        Interlocked.CompareExchange(ref _error, reason, null);
        Completed.Set();
    }

    public void Dispose()
    {
        Assigned.Dispose();
        Completed.Dispose();
    }
}
