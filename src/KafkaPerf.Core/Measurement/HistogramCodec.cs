using System.Buffers.Binary;
using System.IO.Compression;
using HdrHistogram;
using HdrHistogram.Utilities;

namespace KafkaPerf.Measurement;

/// <summary>HdrHistogram's compressed encoding (what <c>.hlog</c> files hold, base64-encoded), as arrays.</summary>
/// <remarks>Decoding inflates the payload itself: HdrHistogram.NET 2.5.0 inflates it with one <c>Stream.Read</c>, which on
/// .NET 6 and later may return only part of it, so that every histogram whose payload is larger than one read (a wide
/// one of some hundred thousand values: a second of a run at 200 000 msg/s with spikes) failed with "The buffer does not
/// contain the indicated payload amount" - and with it the plan that wrote its <c>.hlog</c> or merged its workers.</remarks>
public static class HistogramCodec
{
    private const int HeaderBytes = 8;

    /// <summary>Encodes a histogram in HdrHistogram's compressed form.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <returns>The bytes.</returns>
    public static byte[] Encode(HistogramBase histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        return Encode(histogram, ByteBuffer.Allocate(histogram.GetNeededByteBufferCapacity()));
    }

    /// <summary>Encodes a histogram in HdrHistogram's compressed form through a buffer the caller reuses.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <param name="buffer">A buffer of at least <see cref="HistogramBase.GetNeededByteBufferCapacity"/> bytes.</param>
    /// <returns>The bytes.</returns>
    public static byte[] Encode(HistogramBase histogram, ByteBuffer buffer)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        ArgumentNullException.ThrowIfNull(buffer);
        buffer.Position = 0;
        int length = HistogramEncoding.EncodeIntoCompressedByteBuffer(histogram, buffer);
        var bytes = new byte[length];
        buffer.Position = 0;
        for (int i = 0; i < length; i++) bytes[i] = buffer.Get();
        return bytes;
    }

    /// <summary>Decodes HdrHistogram's compressed form: a cookie, the deflated payload's length (both big-endian) and the
    /// payload (zlib), inflated here in full, then decoded by HdrHistogram.</summary>
    /// <param name="bytes">The bytes.</param>
    /// <returns>The histogram.</returns>
    /// <exception cref="FormatException">The bytes are not a compressed histogram.</exception>
    public static HistogramBase Decode(byte[] bytes)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        int length = bytes.Length >= HeaderBytes ? BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(4)) : -1;
        if (length < 0 || length > bytes.Length - HeaderBytes)
            throw new FormatException($"Not a compressed histogram: {bytes.Length} bytes, a payload of {length} announced.");
        using var inflater = new ZLibStream(new MemoryStream(bytes, HeaderBytes, length, writable: false), CompressionMode.Decompress);
        using var payload = new MemoryStream();
        try
        {
            inflater.CopyTo(payload);
        }
        catch (InvalidDataException ex)
        {
            throw new FormatException($"Not a compressed histogram: {ex.Message}", ex);
        }
        return HistogramEncoding.DecodeFromByteBuffer(ByteBuffer.Allocate(payload.ToArray()), 0);
    }
}
