using System.Text.Json.Serialization;

namespace KafkaPerf.Measurement;

/// <summary>One interval of a run's time series (1 s by default): what was sent, acknowledged and consumed in it, and
/// the latencies of the timed records whose acknowledgement or arrival fell in it.</summary>
public sealed record IntervalRecord
{
    /// <summary>Position in the run, from 0.</summary>
    public required int Index { get; init; }

    /// <summary>Start, in seconds from when the run's first record was due.</summary>
    public required double StartSeconds { get; init; }

    /// <summary>Length in seconds (the last interval of a run may be shorter).</summary>
    public required double LengthSeconds { get; init; }

    /// <summary>Whether the interval began before the warm-up ended: its records count in no figure of the run.</summary>
    public required bool Warmup { get; init; }

    /// <summary>Records handed to the client in the interval.</summary>
    public required long Sent { get; init; }

    /// <summary>Records the broker acknowledged in the interval.</summary>
    public required long Acknowledged { get; init; }

    /// <summary>Records consumed in the interval (roundtrip runs).</summary>
    public required long Consumed { get; init; }

    /// <summary>Sent records per second.</summary>
    public double SentPerSecond => LengthSeconds > 0 ? Sent / LengthSeconds : 0;

    /// <summary>Acknowledged records per second.</summary>
    public double AcknowledgedPerSecond => LengthSeconds > 0 ? Acknowledged / LengthSeconds : 0;

    /// <summary>Consumed records per second.</summary>
    public double ConsumedPerSecond => LengthSeconds > 0 ? Consumed / LengthSeconds : 0;

    /// <summary>Payload megabytes (10^6 bytes) per second: acknowledged ones, or consumed ones in a roundtrip.</summary>
    public required double MegabytesPerSecond { get; init; }

    /// <summary>Records sent but not yet acknowledged at the interval's end.</summary>
    public required long InFlight { get; init; }

    /// <summary>Records sent but not yet consumed at the interval's end (the consumer lag; roundtrip runs only).</summary>
    public long? Lag { get; init; }

    /// <summary>Response time (from when each record was due) of the interval's timed records.</summary>
    public IntervalLatency? ResponseTime { get; init; }

    /// <summary>Service time (from when each record was actually sent).</summary>
    public IntervalLatency? ServiceTime { get; init; }

    /// <summary>Send delay (actual − intended send time) of the records sent in the interval.</summary>
    public IntervalLatency? SendDelay { get; init; }

    /// <summary>Where the interval's time went (the client's own figures, collections); <see langword="null"/> with
    /// <c>--no-breakdown</c>.</summary>
    public IntervalBreakdown? Breakdown { get; init; }

    /// <summary>The key of the response-time histogram in <see cref="EncodedHistograms"/>.</summary>
    public const string ResponseMetric = "response";

    /// <summary>The key of the service-time histogram in <see cref="EncodedHistograms"/>.</summary>
    public const string ServiceMetric = "service";

    /// <summary>The key of the send-delay histogram in <see cref="EncodedHistograms"/>.</summary>
    public const string SendDelayMetric = "send-delay";

    /// <summary>The interval's histograms in HdrHistogram's compressed encoding, by metric (<see cref="ResponseMetric"/>,
    /// <see cref="ServiceMetric"/>, <see cref="SendDelayMetric"/>), for the <c>.hlog</c> file; not in the JSON.</summary>
    [JsonIgnore]
    public IReadOnlyDictionary<string, byte[]>? EncodedHistograms { get; init; }
}

/// <summary>The percentiles of one latency in one interval, in microseconds.</summary>
/// <param name="Count">Timed records in the interval.</param>
/// <param name="P50Micros">Median.</param>
/// <param name="P99Micros">99th percentile.</param>
/// <param name="P999Micros">99.9th percentile.</param>
/// <param name="MaxMicros">Largest.</param>
public sealed record IntervalLatency(long Count, double P50Micros, double P99Micros, double P999Micros, double MaxMicros);
