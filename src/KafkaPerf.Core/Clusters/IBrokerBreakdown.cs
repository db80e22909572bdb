using KafkaPerf.Measurement;

namespace KafkaPerf.Clusters;

/// <summary>
/// Reads where the broker's time went from the broker's own request metrics and its runtime's collections, interval by
/// interval: <see cref="ClusterConnection.BrokerBreakdown"/> of a broker KafkaPerf can ask (the embedded one). Each run
/// that records a breakdown starts a count of its own, so that runs at the same time do not take each other's figures.
/// </summary>
public interface IBrokerBreakdown
{
    /// <summary>A new count, for one run's series or one burst.</summary>
    /// <returns>The count; its first <see cref="IBrokerBreakdownCount.TakeInterval"/> starts it.</returns>
    IBrokerBreakdownCount NewCount();
}

/// <summary>One run's count of the broker's figures: called on the run's sampler thread, once when its series starts
/// and then once per interval; never on a send path.</summary>
public interface IBrokerBreakdownCount
{
    /// <summary>The broker's figures since the previous call (none on the first call, which starts the count). Waits at
    /// most <paramref name="wait"/> for the broker's answer: a node that does not answer in time (paused, gone) is left
    /// out of this interval, and what it did is counted in the first interval it answers again.</summary>
    /// <param name="wait">The longest the sampler may wait.</param>
    /// <returns>The interval's figures, or <see langword="null"/> on the first call or when no node answered.</returns>
    BrokerBreakdown? TakeInterval(TimeSpan wait);
}
