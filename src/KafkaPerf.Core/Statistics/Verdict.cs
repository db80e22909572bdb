namespace KafkaPerf.Statistics;

/// <summary>The outcome of comparing candidate A with baseline B on one metric.</summary>
public enum Verdict
{
    /// <summary>A is better than B on the metric, whatever the metric's direction.</summary>
    Faster,

    /// <summary>A is worse than B on the metric, whatever the metric's direction.</summary>
    Slower,

    /// <summary>The whole confidence interval lies within the tolerance band around parity.</summary>
    OnPar,

    /// <summary>The data cannot tell: the interval is too wide, or there are too few samples.</summary>
    Inconclusive,
}
