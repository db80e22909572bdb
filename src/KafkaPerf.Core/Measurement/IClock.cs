namespace KafkaPerf.Measurement;

/// <summary>A monotonic clock; injected so that timing logic can be tested.</summary>
public interface IClock
{
    /// <summary>Ticks per second.</summary>
    long Frequency { get; }

    /// <summary>The current monotonic timestamp, in ticks.</summary>
    /// <returns>The timestamp.</returns>
    long GetTimestamp();
}
