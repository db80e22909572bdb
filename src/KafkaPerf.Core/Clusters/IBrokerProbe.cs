namespace KafkaPerf.Clusters;

/// <summary>
/// What can be read about the broker itself: its process's CPU time and the bytes a topic takes on disk. The embedded
/// broker has one (<see cref="ClusterConnection.BrokerProbe"/>); an external cluster and the in-memory client have none,
/// so their runs record no broker figures.
/// </summary>
/// <remarks>Called outside timed sections only (before, after, and before the run's topic is deleted); it may allocate
/// and read files.</remarks>
public interface IBrokerProbe
{
    /// <summary>CPU time (user + system) the broker's process has used so far.</summary>
    /// <returns>The time, or <see langword="null"/> when it cannot be read (the process is gone).</returns>
    TimeSpan? ReadCpuTime();

    /// <summary>The bytes the topic's log segments take on disk now, over every partition.</summary>
    /// <param name="topic">The topic.</param>
    /// <returns>The bytes, or <see langword="null"/> when the topic's folders cannot be found.</returns>
    long? TopicBytesOnDisk(string topic);
}
