namespace KafkaPerf.Measurement;

/// <summary>
/// Checks that keys 0..N-1 each arrive exactly once: one bit per key, so ten million keys cost 1.25 MB.
/// Loss and duplicates are counted, never hidden.
/// </summary>
/// <remarks>Single writer (the poll thread); read the counts after the consumer stopped.</remarks>
public sealed class KeyVerifier
{
    private readonly ulong[] _seen;
    private readonly long _range;
    private readonly Func<long, bool>? _excluded;

    /// <summary>Creates a verifier for keys 0..<paramref name="expectedCount"/>-1.</summary>
    /// <param name="expectedCount">How many keys are expected.</param>
    public KeyVerifier(long expectedCount)
        : this(expectedCount, null, 0)
    {
    }

    /// <summary>Creates a verifier for keys 0..<paramref name="range"/>-1 of which those <paramref name="excluded"/> says
    /// must never arrive (the records of aborted transactions, for a read-committed consumer).</summary>
    /// <param name="range">Keys sent, 0..range-1.</param>
    /// <param name="excluded">Whether a key must never arrive.</param>
    /// <param name="excludedCount">How many keys of the range it excludes.</param>
    public KeyVerifier(long range, Func<long, bool>? excluded, long excludedCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(range);
        ArgumentOutOfRangeException.ThrowIfNegative(excludedCount);
        _range = range;
        _excluded = excluded;
        ExpectedCount = range - excludedCount;
        _seen = new ulong[(range + 63) / 64];
    }

    /// <summary>How many keys are expected.</summary>
    public long ExpectedCount { get; }

    /// <summary>Arrivals of keys that must never arrive (counted in <see cref="Unexpected"/> too).</summary>
    public long Excluded { get; private set; }

    /// <summary>Distinct expected keys seen so far.</summary>
    public long Distinct { get; private set; }

    /// <summary>Keys seen more than once (each extra arrival counts).</summary>
    public long Duplicates { get; private set; }

    /// <summary>Keys outside 0..N-1, or excluded.</summary>
    public long Unexpected { get; private set; }

    /// <summary>Expected keys never seen.</summary>
    public long Lost => ExpectedCount - Distinct;

    /// <summary>Whether every expected key has been seen.</summary>
    public bool IsComplete => Distinct == ExpectedCount;

    /// <summary>Ids that <paramref name="acknowledged"/> holds and this verifier has not seen: the acknowledged records a
    /// read missed. Exact once both have stopped.</summary>
    /// <param name="acknowledged">The ids acknowledged, a verifier of the same range.</param>
    /// <returns>The count.</returns>
    public long CountMissing(ConcurrentKeyVerifier acknowledged)
    {
        ArgumentNullException.ThrowIfNull(acknowledged);
        if (acknowledged.ExpectedCount != _range) throw new ArgumentException("The verifiers cover different ids.", nameof(acknowledged));
        long count = 0;
        for (int i = 0; i < _seen.Length; i++) count += (long)ulong.PopCount(acknowledged.Word(i) & ~_seen[i]);
        return count;
    }

    /// <summary>Records one arrival.</summary>
    /// <param name="key">The key that arrived.</param>
    /// <returns><see langword="true"/> when it was an expected key seen for the first time.</returns>
    public bool Observe(long key)
    {
        if ((ulong)key >= (ulong)_range)
        {
            Unexpected++;
            return false;
        }
        if (_excluded is not null && _excluded(key))
        {
            Excluded++;
            Unexpected++;
            return false;
        }

        ref ulong word = ref _seen[key >> 6];
        ulong bit = 1UL << (int)(key & 63);
        if ((word & bit) != 0)
        {
            Duplicates++;
            return false;
        }

        word |= bit;
        Distinct++;
        return true;
    }
}
