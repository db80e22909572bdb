namespace KafkaPerf.Statistics;

/// <summary>Which way a metric improves; decides whether a ratio below 1 is good or bad news.</summary>
public enum MetricDirection
{
    /// <summary>Smaller values are better (durations, latencies, CPU time).</summary>
    LowerIsBetter,

    /// <summary>Larger values are better (throughput in messages or bytes per second).</summary>
    HigherIsBetter,
}
