using System.Text.Json;
using System.Text.Json.Serialization;
using HdrHistogram;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// A run's measurement as a worker sends it to the coordinator: JSON, with every histogram (the run's and each
/// interval's) in HdrHistogram's compressed encoding, so that the coordinator merges the recorded values, not percentiles.
/// </summary>
public static class MeasurementWire
{
    private static readonly JsonSerializerOptions Options = new()
    {
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new HistogramConverter() },
    };

    /// <summary>The measurement as bytes.</summary>
    /// <param name="measurement">What a run measured.</param>
    /// <returns>UTF-8 JSON.</returns>
    public static byte[] Serialize(RunMeasurement measurement)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        var wire = new Wire(measurement, measurement.Intervals?.Select(i => i.EncodedHistograms).ToList());
        return JsonSerializer.SerializeToUtf8Bytes(wire, Options);
    }

    /// <summary>Reads what <see cref="Serialize"/> wrote.</summary>
    /// <param name="bytes">UTF-8 JSON.</param>
    /// <returns>The measurement.</returns>
    /// <exception cref="JsonException">The bytes are not a measurement.</exception>
    public static RunMeasurement Deserialize(ReadOnlySpan<byte> bytes)
    {
        var wire = JsonSerializer.Deserialize<Wire>(bytes, Options) ?? throw new JsonException("An empty measurement.");
        var m = wire.Measurement ?? throw new JsonException("A measurement without its figures.");
        if (m.Intervals is { } intervals && wire.IntervalHistograms is { } encoded && encoded.Count == intervals.Count)
            m = m with { Intervals = [.. intervals.Select((interval, i) => interval with { EncodedHistograms = encoded[i] })] };
        return m;
    }

    private sealed record Wire(RunMeasurement Measurement, List<IReadOnlyDictionary<string, byte[]>?>? IntervalHistograms);

    private sealed class HistogramConverter : JsonConverter<HistogramBase>
    {
        public override bool CanConvert(Type typeToConvert) => typeof(HistogramBase).IsAssignableFrom(typeToConvert);

        public override HistogramBase? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            reader.TokenType == JsonTokenType.Null ? null : HistogramCodec.Decode(reader.GetBytesFromBase64());

        public override void Write(Utf8JsonWriter writer, HistogramBase value, JsonSerializerOptions options) =>
            writer.WriteBase64StringValue(HistogramCodec.Encode(value));
    }
}
