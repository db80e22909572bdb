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
