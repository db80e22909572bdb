using System.Globalization;

namespace KafkaPerf.Clients;

/// <summary>A number of bytes as people write it: <c>1GB</c>, <c>500MB</c>, <c>64KB</c> (powers of 1000, as every
/// MB in KafkaPerf's results), or plain bytes.</summary>
public static class ByteSize
{
    private static readonly (string Unit, long Factor)[] Units = [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("B", 1)];

    /// <summary>Parses a size.</summary>
    /// <param name="text">E.g. <c>1GB</c>, <c>1.5GB</c>, <c>200MB</c>, <c>4096</c>.</param>
    /// <returns>Bytes.</returns>
    /// <exception cref="FormatException">Not a size; the message says what is expected.</exception>
    public static long Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim().ToUpperInvariant();
        foreach (var (unit, factor) in Units)
        {
            if (!trimmed.EndsWith(unit, StringComparison.Ordinal)) continue;
            if (double.TryParse(trimmed[..^unit.Length], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value) && value * factor is >= 1 and < long.MaxValue)
                return (long)Math.Round(value * factor);
            break;
        }
        if (long.TryParse(trimmed, NumberStyles.None, CultureInfo.InvariantCulture, out var bytes) && bytes >= 1) return bytes;
        throw new FormatException($"'{text}' is not a size: write bytes with a unit, e.g. 1GB, 500MB or 64KB (powers of 1000).");
    }

    /// <summary>The shortest exact spelling: <c>1GB</c>, <c>250MB</c>, <c>1500</c>.</summary>
    /// <param name="bytes">Bytes.</param>
    /// <returns>The text, which <see cref="Parse"/> reads back.</returns>
    public static string Format(long bytes)
    {
        foreach (var (unit, factor) in Units)
            if (factor > 1 && bytes % factor == 0) return (bytes / factor).ToString(CultureInfo.InvariantCulture) + unit;
        return bytes.ToString(CultureInfo.InvariantCulture);
    }
}
