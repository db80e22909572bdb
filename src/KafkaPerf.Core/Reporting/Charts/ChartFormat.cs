using System.Globalization;

namespace KafkaPerf.Reporting.Charts;

/// <summary>How charts write numbers: short, with units, in the invariant culture.</summary>
internal static class ChartFormat
{
    /// <summary>Payload sizes in decimal units, like the MB of MB/s: <c>100 B</c>, <c>1 KB</c>, <c>1.5 KB</c>, <c>10 MB</c>.</summary>
    public static string Bytes(double bytes) => bytes switch
    {
        >= 1e9 => Short(bytes / 1e9) + " GB",
        >= 1e6 => Short(bytes / 1e6) + " MB",
        >= 1e3 => Short(bytes / 1e3) + " KB",
        _ => Short(bytes) + " B",
    };

    /// <summary>Counts with SI suffixes: <c>500</c>, <c>20k</c>, <c>1.5M</c>.</summary>
    public static string Count(double value) => Math.Abs(value) switch
    {
        >= 1e9 => Short(value / 1e9) + "G",
        >= 1e6 => Short(value / 1e6) + "M",
        >= 1e3 => Short(value / 1e3) + "k",
        _ => Short(value),
    };

    /// <summary>A number with at most three significant digits and no trailing zeros.</summary>
    public static string Short(double value)
    {
        if (double.IsNaN(value)) return "–";
        var magnitude = Math.Abs(value);
        var format = magnitude >= 100 || magnitude == 0 ? "0" : magnitude >= 10 ? "0.#" : magnitude >= 1 ? "0.##" : "0.###";
        return value.ToString(format, CultureInfo.InvariantCulture);
    }

    /// <summary>A percentile such as 99.9 as <c>99.9 %</c>.</summary>
    public static string Percentile(double percentile) =>
        percentile.ToString("0.#####", CultureInfo.InvariantCulture) + " %";

    /// <summary>A message count with thin groups: <c>10 000</c>.</summary>
    public static string Messages(long count) =>
        count.ToString("N0", CultureInfo.InvariantCulture).Replace(",", " ", StringComparison.Ordinal);

    /// <summary>A file-name-safe, lower-case form of <paramref name="text"/>: letters and digits, runs of anything else
    /// as one dash.</summary>
    public static string Slug(string text)
    {
        var builder = new System.Text.StringBuilder(text.Length);
        foreach (var c in text.ToLowerInvariant())
        {
            if (char.IsAsciiLetterOrDigit(c)) builder.Append(c);
            else if (builder.Length > 0 && builder[^1] != '-') builder.Append('-');
        }
        return builder.ToString().TrimEnd('-');
    }
}
