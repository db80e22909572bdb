using System.Globalization;

namespace KafkaPerf.Clients;

/// <summary>How a run's records are keyed (<c>--keys</c>).</summary>
public enum KeyMode
{
    /// <summary>Every record its own key: its id, 8 bytes big-endian (KafkaPerf's default).</summary>
    Unique,

    /// <summary>No key: the clients' partitioners spread records by their own rule for keyless records (sticky batches).</summary>
    None,

    /// <summary>One key for every record: one partition takes them all.</summary>
    Fixed,

    /// <summary>N distinct keys, each equally likely.</summary>
    Random,

    /// <summary>N distinct keys, the k-th most common with a probability proportional to 1/k^S.</summary>
    Zipf,
}

/// <summary>A key distribution: <c>unique</c>, <c>none</c>, <c>fixed</c>, <c>random:N</c> or <c>zipf:N:S</c>.</summary>
/// <param name="Mode">The distribution.</param>
/// <param name="Count">Distinct keys (random, zipf); 1 for fixed; 0 otherwise.</param>
/// <param name="Skew">Zipf's exponent S (zipf only).</param>
public sealed record KeySpec(KeyMode Mode, int Count = 0, double Skew = 0)
{
    /// <summary>The most distinct keys a run may have: the key table is built before the run, in memory.</summary>
    public const int MaxKeys = 1_000_000;

    /// <summary>Today's keys: every record its own.</summary>
    public static KeySpec Unique { get; } = new(KeyMode.Unique);

    /// <summary>Whether a record's key says which record it is. When it does not, the record's id travels in the first
    /// 8 bytes of its value instead (<see cref="RecordKeys.IdBytes"/>).</summary>
    public bool KeyIsId => Mode == KeyMode.Unique;

    /// <summary>Parses <c>unique</c>, <c>none</c>, <c>fixed</c>, <c>random:N</c> or <c>zipf:N:S</c>.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The spec.</returns>
    /// <exception cref="FormatException">Not one of those; the message says what is expected.</exception>
    public static KeySpec Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parts = text.Trim().ToLowerInvariant().Split(':');
        return (parts[0], parts.Length) switch
        {
            ("unique", 1) => Unique,
            ("none", 1) => new KeySpec(KeyMode.None),
            ("fixed", 1) => new KeySpec(KeyMode.Fixed, 1),
            ("random", 2) => new KeySpec(KeyMode.Random, ParseCount(parts[1], text)),
            ("zipf", 3) => new KeySpec(KeyMode.Zipf, ParseCount(parts[1], text), ParseSkew(parts[2], text)),
            _ => throw new FormatException(
                $"'{text}' is not a key distribution: use unique, none, fixed, random:N (N distinct keys) or zipf:N:S (N keys, skew S > 0), e.g. zipf:1000:1.1."),
        };
    }

    /// <summary>The canonical text, which <see cref="Parse"/> reads back.</summary>
    public override string ToString() => Mode switch
    {
        KeyMode.Random => $"random:{Count.ToString(CultureInfo.InvariantCulture)}",
        KeyMode.Zipf => $"zipf:{Count.ToString(CultureInfo.InvariantCulture)}:{Skew.ToString("0.###", CultureInfo.InvariantCulture)}",
        _ => Mode.ToString().ToLowerInvariant(),
    };

    private static int ParseCount(string value, string text) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int n) && n is >= 1 and <= MaxKeys ? n
            : throw new FormatException($"'{text}': the number of keys must be a whole number from 1 to {MaxKeys.ToString("N0", CultureInfo.InvariantCulture)}, e.g. random:1000.");

    private static double ParseSkew(string value, string text) =>
        double.TryParse(value, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double s) && s > 0 && s <= 10 ? s
            : throw new FormatException($"'{text}': the skew must be a number above 0 and at most 10 (1 is classic Zipf), e.g. zipf:1000:1.1.");
}

/// <summary>Headers on every record (<c>--headers N:BYTES</c>): N headers named <c>h0</c>…, each with a value of BYTES bytes.</summary>
/// <param name="Count">Headers per record.</param>
/// <param name="Bytes">Bytes of each header's value.</param>
public sealed record HeaderSpec(int Count, int Bytes)
{
    /// <summary>The most headers per record.</summary>
    public const int MaxCount = 1000;

    /// <summary>Parses <c>N:BYTES</c> (e.g. <c>5:32</c>); <c>0</c> or <c>0:0</c> is no headers.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The spec.</returns>
    /// <exception cref="FormatException">Not that form; the message says what is expected.</exception>
    public static HeaderSpec Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parts = text.Trim().Split(':');
        if (parts is ["0"]) return new HeaderSpec(0, 0);
        if (parts.Length == 2
            && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out int count) && count <= MaxCount
            && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out int bytes) && bytes <= 1_000_000)
            return new HeaderSpec(count, count == 0 ? 0 : bytes);
        throw new FormatException($"'{text}' is not a header count and size: use N:BYTES (N headers of BYTES bytes each, N at most {MaxCount}), e.g. 5:32, or 0 for none.");
    }

    /// <summary>Bytes the headers add to a record on the wire, about: per header its name, its value and two lengths.</summary>
    public int WireBytes => Count * (Name(Count - 1).Length + Bytes + 2);

    /// <summary>The name of header <paramref name="index"/>.</summary>
    /// <param name="index">From 0.</param>
    /// <returns><c>h0</c>, <c>h1</c>, ….</returns>
    public static string Name(int index) => "h" + index.ToString(CultureInfo.InvariantCulture);

    /// <summary>The value every record carries in header <paramref name="index"/>: <see cref="Bytes"/> bytes of a fixed
    /// pattern, so a consumer can check it.</summary>
    /// <param name="index">From 0.</param>
    /// <returns>A new array.</returns>
    public byte[] Value(int index)
    {
        var value = new byte[Bytes];
        for (int i = 0; i < value.Length; i++) value[i] = (byte)('a' + ((index + i) % 26));
        return value;
    }

    /// <summary>The canonical text, which <see cref="Parse"/> reads back.</summary>
    public override string ToString() => Count == 0 ? "0" : $"{Count.ToString(CultureInfo.InvariantCulture)}:{Bytes.ToString(CultureInfo.InvariantCulture)}";
}
