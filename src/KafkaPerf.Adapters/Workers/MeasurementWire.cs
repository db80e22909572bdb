using System.Text.Json;
using System.Text.Json.Serialization;
using HdrHistogram;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// A run's measurement as a worker sends it to the coordinator: the record's JSON, and beside it every histogram (the
/// run's and each interval's) in HdrHistogram's compressed encoding and the clients' effective configurations, which the
/// result's JSON leaves out: the coordinator merges the recorded values, not percentiles.
/// </summary>
public static class MeasurementWire
{
    private const string LatencyMetric = "latency";

    private static readonly JsonSerializerOptions Options = new()
    {
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    /// <summary>The measurement as bytes.</summary>
    /// <param name="measurement">What a run measured.</param>
    /// <returns>UTF-8 JSON.</returns>
    public static byte[] Serialize(RunRecord measurement)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        var histograms = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        void Add(string metric, HistogramBase? histogram)
        {
            if (histogram is not null) histograms[metric] = HistogramCodec.Encode(histogram);
        }
        Add(LatencyMetric, measurement.LatencyHistogram);
        Add(IntervalRecord.ResponseMetric, measurement.ResponseTimeHistogram);
        Add(IntervalRecord.ServiceMetric, measurement.ServiceTimeHistogram);
        Add(IntervalRecord.SendDelayMetric, measurement.SendDelayHistogram);
        var wire = new Wire(measurement, histograms, measurement.Intervals?.Select(i => i.EncodedHistograms).ToList(),
            measurement.ProducerConfig, measurement.ConsumerConfig);
        return JsonSerializer.SerializeToUtf8Bytes(wire, Options);
    }

    /// <summary>Reads what <see cref="Serialize"/> wrote.</summary>
    /// <param name="bytes">UTF-8 JSON.</param>
    /// <returns>The measurement.</returns>
    /// <exception cref="JsonException">The bytes are not a measurement.</exception>
    public static RunRecord Deserialize(ReadOnlySpan<byte> bytes)
    {
        var wire = JsonSerializer.Deserialize<Wire>(bytes, Options) ?? throw new JsonException("An empty measurement.");
        var m = wire.Measurement ?? throw new JsonException("A measurement without its figures.");
        HistogramBase? Histogram(string metric) =>
            wire.Histograms?.GetValueOrDefault(metric) is { } encoded ? HistogramCodec.Decode(encoded) : null;
        m = m with
        {
            LatencyHistogram = Histogram(LatencyMetric),
            ResponseTimeHistogram = Histogram(IntervalRecord.ResponseMetric),
            ServiceTimeHistogram = Histogram(IntervalRecord.ServiceMetric),
            SendDelayHistogram = Histogram(IntervalRecord.SendDelayMetric),
            ProducerConfig = wire.ProducerConfig,
            ConsumerConfig = wire.ConsumerConfig,
        };
        if (m.Intervals is { } intervals && wire.IntervalHistograms is { } encodedIntervals && encodedIntervals.Count == intervals.Count)
            m = m with { Intervals = [.. intervals.Select((interval, i) => interval with { EncodedHistograms = encodedIntervals[i] })] };
        return m;
    }

    private sealed record Wire(RunRecord Measurement, Dictionary<string, byte[]>? Histograms,
        List<IReadOnlyDictionary<string, byte[]>?>? IntervalHistograms,
        IReadOnlyDictionary<string, string>? ProducerConfig, IReadOnlyDictionary<string, string>? ConsumerConfig);
}
