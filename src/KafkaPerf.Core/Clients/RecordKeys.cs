using System.Buffers.Binary;
using System.Globalization;
using System.Text;

namespace KafkaPerf.Clients;

/// <summary>
/// The key of each record of a run, from the record's id: the same key for the same id in every client, so that two
/// clients send the same keys in the same order. Keys of the table modes (fixed, random, zipf) are the key's index in
/// ASCII decimal, zero-padded to the key size; a unique key is the id, 8 bytes big-endian, zero-padded in front.
/// </summary>
/// <remarks>An id is mixed (splitmix64) into 64 random-looking bits; random keys take it modulo N, zipf keys search a
/// table of cumulative thresholds. Integer arithmetic only once built, so an adapter in another language (the Java
/// client's) computes the same index from <see cref="Thresholds"/>. One instance per producer: <see cref="KeyOf"/>
/// returns a buffer it reuses for unique keys.</remarks>
public sealed class RecordKeys
{
    /// <summary>Bytes of a record's id when it travels in its value (big-endian, first): when keys are not unique.</summary>
    public const int IdBytes = sizeof(long);

    /// <summary>The default key size, in bytes.</summary>
    public const int DefaultKeySize = 8;

    /// <summary>The largest key size.</summary>
    public const int MaxKeySize = 10_000;

    /// <summary><see cref="IndexOf"/> for a record without key.</summary>
    public const int NoKey = -1;

    /// <summary><see cref="IndexOf"/> for a unique key (the id itself).</summary>
    public const int IdKey = -2;

    private const long ThresholdScale = 1L << 62;

    private readonly byte[][] _table;
    private readonly byte[] _unique;

    /// <summary>Builds the keys of a distribution.</summary>
    /// <param name="spec">The distribution.</param>
    /// <param name="keySize">Bytes per key.</param>
    /// <exception cref="ArgumentException">A key size that cannot hold the keys (<see cref="Check"/>).</exception>
    public RecordKeys(KeySpec spec, int keySize = DefaultKeySize)
    {
        ArgumentNullException.ThrowIfNull(spec);
        if (Check(spec, keySize) is { } problem) throw new ArgumentException(problem, nameof(keySize));
        Spec = spec;
        KeySize = keySize;
        _unique = new byte[Math.Max(keySize, IdBytes)];
        _table = spec.Mode is KeyMode.Fixed or KeyMode.Random or KeyMode.Zipf
            ? [.. Enumerable.Range(0, spec.Count).Select(i => Encoding.ASCII.GetBytes(i.ToString(CultureInfo.InvariantCulture).PadLeft(keySize, '0')))]
            : [];
        Thresholds = spec.Mode == KeyMode.Zipf ? ZipfThresholds(spec.Count, spec.Skew) : [];
    }

    /// <summary>The keys of a producer's settings (<see cref="ClientSettings.Keys"/>, <see cref="ClientSettings.KeySizeBytes"/>).</summary>
    /// <param name="settings">The settings.</param>
    /// <returns>The keys.</returns>
    public static RecordKeys For(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return new RecordKeys(settings.Keys ?? KeySpec.Unique, settings.KeySizeBytes ?? DefaultKeySize);
    }

    /// <summary>Whether a key size can hold a distribution's keys.</summary>
    /// <param name="spec">The distribution.</param>
    /// <param name="keySize">Bytes per key.</param>
    /// <returns><see langword="null"/> when it can; otherwise one line saying what to give.</returns>
    public static string? Check(KeySpec spec, int keySize)
    {
        ArgumentNullException.ThrowIfNull(spec);
        if (keySize > MaxKeySize) return $"--key-size {keySize} is more than {MaxKeySize.ToString("N0", CultureInfo.InvariantCulture)} bytes: give a smaller key size.";
        int needed = spec.Mode switch
        {
            KeyMode.Unique => IdBytes,
            KeyMode.None => 0,
            _ => Math.Max(1, (spec.Count - 1).ToString(CultureInfo.InvariantCulture).Length),
        };
        return keySize < Math.Max(needed, 1)
            ? $"--key-size {keySize} cannot hold the keys of {spec}: they need at least {needed} bytes{(spec.Mode == KeyMode.Unique ? " (the record's id)" : " (the key's number in decimal)")}."
            : null;
    }

    /// <summary>The distribution.</summary>
    public KeySpec Spec { get; }

    /// <summary>Bytes per key.</summary>
    public int KeySize { get; }

    /// <summary>Cumulative thresholds of the zipf keys, scaled to 2^62 (the last is 2^62); empty for other modes.</summary>
    public long[] Thresholds { get; }

    /// <summary>The table keys, one after another (<see cref="KeySize"/> bytes each); empty for unique and none.</summary>
    public byte[] TableBytes() => [.. _table.SelectMany(k => k)];

    /// <summary>Which key a record has: an index into the table, <see cref="NoKey"/> or <see cref="IdKey"/>.</summary>
    /// <param name="id">The record's id.</param>
    /// <returns>The index.</returns>
    public int IndexOf(long id)
    {
        switch (Spec.Mode)
        {
            case KeyMode.Unique: return IdKey;
            case KeyMode.None: return NoKey;
            case KeyMode.Fixed: return 0;
            case KeyMode.Random: return (int)((Mix(id) >> 1) % (ulong)Spec.Count);
            default:
                long u = (long)(Mix(id) >> 2);
                var thresholds = Thresholds;
                int low = 0, high = thresholds.Length - 1;
                while (low < high)
                {
                    int middle = (low + high) >>> 1;
                    if (u < thresholds[middle]) high = middle;
                    else low = middle + 1;
                }
                return low;
        }
    }

    /// <summary>A record's key: a table key (never to be changed), the id in a buffer this instance reuses, or
    /// <see langword="null"/> for no key. The hot path: no allocation.</summary>
    /// <param name="id">The record's id.</param>
    /// <returns>The key's bytes.</returns>
    public byte[]? KeyOf(long id)
    {
        int index = IndexOf(id);
        if (index >= 0) return _table[index];
        if (index == NoKey) return null;
        BinaryPrimitives.WriteInt64BigEndian(_unique.AsSpan(_unique.Length - IdBytes), id);
        return _unique;
    }

    /// <summary>The key of table index <paramref name="index"/>.</summary>
    /// <param name="index">From 0.</param>
    /// <returns>The key's bytes (never to be changed).</returns>
    public byte[] TableKey(int index) => _table[index];

    /// <summary>splitmix64's finalizer: consecutive ids become unrelated 64-bit values.</summary>
    /// <param name="id">The record's id.</param>
    /// <returns>The mixed bits.</returns>
    public static ulong Mix(long id)
    {
        ulong z = unchecked((ulong)id + 0x9E3779B97F4A7C15UL);
        z = unchecked((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL);
        z = unchecked((z ^ (z >> 27)) * 0x94D049BB133111EBUL);
        return z ^ (z >> 31);
    }

    /// <summary>A record's id from the first bytes of its value, where it travels when keys are not unique.</summary>
    /// <param name="value">The record's value.</param>
    /// <returns>The id; -1 when the value is too short to hold one.</returns>
    public static long IdOf(ReadOnlySpan<byte> value) => value.Length >= IdBytes ? BinaryPrimitives.ReadInt64BigEndian(value) : -1;

    private static long[] ZipfThresholds(int count, double skew)
    {
        var weights = new double[count];
        double total = 0;
        for (int k = 0; k < count; k++) total += weights[k] = 1 / Math.Pow(k + 1, skew);
        var thresholds = new long[count];
        double cumulative = 0;
        for (int k = 0; k < count; k++)
        {
            cumulative += weights[k];
            thresholds[k] = k == count - 1 ? ThresholdScale : (long)Math.Min(ThresholdScale, cumulative / total * ThresholdScale);
        }
        return thresholds;
    }
}
