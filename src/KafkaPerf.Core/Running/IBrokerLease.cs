using KafkaPerf.Clusters;

namespace KafkaPerf.Running;

/// <summary>A session's broker, ready: where clients connect, and what to stop afterwards.</summary>
public interface IBrokerLease : IAsyncDisposable
{
    /// <summary>Where clients connect, with the broker's description for the result.</summary>
    ClusterConnection Connection { get; }

    /// <summary>For a process that must end now: kills what was started (SIGKILL), without waiting.</summary>
    void KillNow();
}
