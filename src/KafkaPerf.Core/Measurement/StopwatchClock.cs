using System.Diagnostics;

namespace KafkaPerf.Measurement;

/// <summary>The process's monotonic clock, <see cref="Stopwatch.GetTimestamp"/>.</summary>
public sealed class StopwatchClock : IClock
{
    private StopwatchClock()
    {
    }

    /// <summary>The only instance.</summary>
    public static StopwatchClock Instance { get; } = new();

    /// <inheritdoc />
    public long Frequency => Stopwatch.Frequency;

    /// <inheritdoc />
    public long GetTimestamp() => Stopwatch.GetTimestamp();
}
