namespace KafkaPerf.Measurement;

/// <summary>
/// Checks that keys 0..N-1 each arrive exactly once: one bit per key, so ten million keys cost 1.25 MB.
/// Loss and duplicates are counted, never hidden.
/// </summary>
/// <remarks>Single writer (the poll thread); read the counts after the consumer stopped.</remarks>
public sealed class KeyVerifier
{
    private readonly ulong[] _seen;

    /// <summary>Creates a verifier for keys 0..<paramref name="expectedCount"/>-1.</summary>
    /// <param name="expectedCount">How many keys are expected.</param>
    public KeyVerifier(long expectedCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(expectedCount);
        ExpectedCount = expectedCount;
        _seen = new ulong[(expectedCount + 63) / 64];
    }

    /// <summary>How many keys are expected.</summary>
    public long ExpectedCount { get; }

    /// <summary>Distinct expected keys seen so far.</summary>
    public long Distinct { get; private set; }

    /// <summary>Keys seen more than once (each extra arrival counts).</summary>
    public long Duplicates { get; private set; }

    /// <summary>Keys outside 0..N-1.</summary>
    public long Unexpected { get; private set; }

    /// <summary>Expected keys never seen.</summary>
    public long Lost => ExpectedCount - Distinct;

    /// <summary>Whether every expected key has been seen.</summary>
    public bool IsComplete => Distinct == ExpectedCount;

    /// <summary>Records one arrival.</summary>
    /// <param name="key">The key that arrived.</param>
    /// <returns><see langword="true"/> when it was an expected key seen for the first time.</returns>
    public bool Observe(long key)
    {
        if ((ulong)key >= (ulong)ExpectedCount)
        {
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
