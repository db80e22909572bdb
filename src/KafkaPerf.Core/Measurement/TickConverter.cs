namespace KafkaPerf.Measurement;

/// <summary>Converts clock ticks to nanoseconds and seconds without allocating.</summary>
/// <remarks>On Linux the stopwatch frequency is 1 GHz, so a tick already is a nanosecond.</remarks>
public readonly struct TickConverter
{
    private readonly double _nanosPerTick;
    private readonly bool _identity;

    /// <summary>Creates a converter for a clock.</summary>
    /// <param name="frequency">The clock's ticks per second.</param>
    public TickConverter(long frequency)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(frequency);
        Frequency = frequency;
        _nanosPerTick = 1e9 / frequency;
        _identity = frequency == 1_000_000_000;
    }

    /// <summary>The clock's ticks per second.</summary>
    public long Frequency { get; }

    /// <summary>Ticks to nanoseconds.</summary>
    /// <param name="ticks">A tick count.</param>
    /// <returns>Nanoseconds.</returns>
    public long ToNanoseconds(long ticks) => _identity ? ticks : (long)(ticks * _nanosPerTick);

    /// <summary>Ticks to seconds.</summary>
    /// <param name="ticks">A tick count.</param>
    /// <returns>Seconds.</returns>
    public double ToSeconds(long ticks) => (double)ticks / Frequency;
}
