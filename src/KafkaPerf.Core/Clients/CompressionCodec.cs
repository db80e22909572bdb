namespace KafkaPerf.Clients;

/// <summary>Producer compression codec (Kafka's <c>compression.type</c>).</summary>
public enum CompressionCodec
{
    /// <summary>No compression.</summary>
    None,

    /// <summary>gzip.</summary>
    Gzip,

    /// <summary>Snappy.</summary>
    Snappy,

    /// <summary>LZ4.</summary>
    Lz4,

    /// <summary>Zstandard.</summary>
    Zstd,
}

/// <summary>Kafka's spelling of <see cref="CompressionCodec"/>, the same for every client.</summary>
public static class CompressionCodecExtensions
{
    /// <summary>The <c>compression.type</c> value: <c>none</c>, <c>gzip</c>, <c>snappy</c>, <c>lz4</c> or <c>zstd</c>.</summary>
    /// <param name="codec">The codec.</param>
    /// <returns>The value.</returns>
    public static string ToKafkaValue(this CompressionCodec codec) => codec.ToString().ToLowerInvariant();
}
