namespace KafkaPerf.Reporting.Charts;

/// <summary>What a report chart shows.</summary>
public enum ChartKind
{
    /// <summary>Messages per second by payload size, one line per client.</summary>
    Throughput,

    /// <summary>Candidate/baseline throughput ratios of every cell, as a heat-map.</summary>
    Ratio,

    /// <summary>Latency by percentile, one curve per client.</summary>
    Latency,

    /// <summary>A load cell's time series: rate or latency per interval.</summary>
    TimeSeries,

    /// <summary>Latency against offered rate (the sustainable-rate search).</summary>
    RateCurve,

    /// <summary>Where the time went: a stacked bar per client and cell (queue, network and broker, the rest).</summary>
    Breakdown,
}
