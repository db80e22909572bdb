namespace KafkaPerf.Clients;

/// <summary>A consumer under test.</summary>
public interface IBenchConsumer : IDisposable
{
    /// <summary>The configuration the client really runs with.</summary>
    IReadOnlyDictionary<string, string> EffectiveConfig { get; }

    /// <summary>Whether prefetching on a thread of the client's own is on for this consumer.</summary>
    bool PrefetchEnabled { get; }

    /// <summary>Subscribes and starts polling on a thread the consumer owns; records go to <paramref name="sink"/>.</summary>
    /// <param name="sink">Receives the assignment signal and the records.</param>
    void StartPolling(IRecordSink sink);

    /// <summary>Stops polling and waits for the poll thread to end.</summary>
    void StopPolling();
}
