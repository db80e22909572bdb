namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// How a worker group's messages travel: every party sends keyed messages and reads everyone's, in order. The Kafka
/// cluster under test carries them (<see cref="WorkerBus"/>, a topic per group); the protocol itself
/// (<see cref="WorkerMessage"/>, <see cref="Coordinator"/>, <see cref="WorkerLoop"/>) knows only this.
/// </summary>
public interface IWorkerTransport : IDisposable
{
    /// <summary>Sends a message without waiting for it to be written.</summary>
    /// <param name="key">The sender.</param>
    /// <param name="value">The message.</param>
    void Send(string key, byte[] value);

    /// <summary>Waits until what was sent is written, at most <paramref name="timeout"/>.</summary>
    /// <param name="timeout">The longest wait.</param>
    /// <returns>Whether everything was written.</returns>
    bool Flush(TimeSpan timeout);

    /// <summary>The next message of any party, or <see langword="null"/> when none came within <paramref name="timeout"/>.</summary>
    /// <param name="timeout">The longest wait.</param>
    /// <returns>The sender and the message.</returns>
    (string Key, byte[] Value)? Receive(TimeSpan timeout);
}
