using System.Globalization;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace KafkaPerf.Measurement;

/// <summary>
/// A fixed-memory, high-dynamic-range histogram of non-negative integer values (latencies in nanoseconds in practice)
/// whose percentiles are accurate to a chosen number of significant digits.
/// </summary>
/// <remarks>
/// <para>
/// Layout (log-linear, as in HDR histograms): with d significant digits there are S sub-buckets per bucket, S being
/// the next power of two ≥ 2·10^d (2048 for d = 3). Bucket 0 covers [0, S) with a resolution of 1; bucket k ≥ 1 covers
/// [S·2^(k−1), S·2^k) with a resolution of 2^k, using only the upper half of its sub-buckets because the lower half
/// would duplicate bucket k − 1. A value's bucket follows from its count of leading zero bits, so recording is a few
/// integer operations on one flat array of counts. Every value is represented within 1 part in S/2 ≥ 10^d.
/// </para>
/// <para>
/// Percentiles report the highest value equivalent to the bucket holding the target rank, clamped to
/// <see cref="Max"/>, so they never understate a latency. Merging with <see cref="Add"/> is exact, which is why per-run
/// or per-thread percentiles must be merged through histograms rather than averaged.
/// </para>
/// <para>
/// Thread-safety: a histogram has a single writer and no locks. Record from one thread only, and read (or
/// <see cref="Add"/>/<see cref="Copy"/> from) it only once that thread has stopped recording or been synchronized
/// with; give each concurrent writer its own histogram and merge them afterwards.
/// </para>
/// </remarks>
public sealed class LatencyHistogram
{
    private readonly long[] _counts;
    private readonly int _subBucketBits;     // log2(S)
    private readonly int _subBucketHalfBits; // log2(S / 2)
    private readonly long _subBucketMask;    // S − 1

    private long _totalCount;
    private long _overflowCount;
    private long _min = long.MaxValue;
    private long _max;

    // 128 bits so that no realistic count of hour-long values can overflow the sum that gives an exact mean.
    private Int128 _sum;

    /// <summary>Creates an empty histogram.</summary>
    /// <param name="highestTrackableValue">
    /// The largest value kept as is; larger values are clamped to it and counted in <see cref="OverflowCount"/>.
    /// The default is one hour in nanoseconds.
    /// </param>
    /// <param name="significantDigits">The decimal digits of precision kept for every value, 1 to 5.</param>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="highestTrackableValue"/> is below 1 or <paramref name="significantDigits"/> is outside 1..5.
    /// </exception>
    public LatencyHistogram(long highestTrackableValue = 3_600_000_000_000, int significantDigits = 3)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(highestTrackableValue, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(significantDigits, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(significantDigits, 5);

        HighestTrackableValue = highestTrackableValue;
        SignificantDigits = significantDigits;

        var subBucketCount = (long)BitOperations.RoundUpToPowerOf2((ulong)(2 * (long)Math.Pow(10, significantDigits)));
        _subBucketBits = BitOperations.Log2((ulong)subBucketCount);
        _subBucketHalfBits = _subBucketBits - 1;
        _subBucketMask = subBucketCount - 1;

        // Add buckets, each doubling the covered range, until the highest trackable value fits.
        var bucketCount = 1;
        var smallestUntrackable = subBucketCount;
        while (smallestUntrackable <= highestTrackableValue && smallestUntrackable <= long.MaxValue / 2)
        {
            smallestUntrackable <<= 1;
            bucketCount++;
        }

        if (smallestUntrackable <= highestTrackableValue)
        {
            bucketCount++; // the last doubling would overflow a long; one more bucket reaches long.MaxValue
        }

        // Bucket 0 uses all S sub-buckets and every other bucket S / 2.
        _counts = new long[(bucketCount + 1) << _subBucketHalfBits];
    }

    /// <summary>The largest value recorded as is; larger values are clamped to it.</summary>
    public long HighestTrackableValue { get; }

    /// <summary>The decimal digits of precision kept for every value.</summary>
    public int SignificantDigits { get; }

    /// <summary>The number of recorded values.</summary>
    public long TotalCount => _totalCount;

    /// <summary>How many recorded values exceeded <see cref="HighestTrackableValue"/> and were clamped to it.</summary>
    public long OverflowCount => _overflowCount;

    /// <summary>The smallest recorded value (after clamping), exactly; 0 when empty.</summary>
    public long Min => _totalCount == 0 ? 0 : _min;

    /// <summary>The largest recorded value (after clamping), exactly; 0 when empty.</summary>
    public long Max => _max;

    /// <summary>The exact mean of the recorded values (after clamping); 0 when empty, like <see cref="Min"/>.</summary>
    public double Mean => _totalCount == 0 ? 0.0 : (double)_sum / _totalCount;

    /// <summary>
    /// The population standard deviation of the recorded values, computed from the buckets about the exact mean and
    /// so accurate to the histogram's precision; 0 when empty.
    /// </summary>
    public double StandardDeviation
    {
        get
        {
            if (_totalCount == 0)
            {
                return 0.0;
            }

            // Deviations from the mean, not Σx² − n·mean², which cancels badly when the spread is small.
            var mean = Mean;
            var sumOfSquares = 0.0;
            for (var index = 0; index < _counts.Length; index++)
            {
                var count = _counts[index];
                if (count != 0)
                {
                    var deviation = MidpointOf(index) - mean;
                    sumOfSquares += deviation * deviation * count;
                }
            }

            return Math.Sqrt(sumOfSquares / _totalCount);
        }
    }

    /// <summary>Records one value. Allocation-free and lock-free: safe to call on the hot path, from one thread.</summary>
    /// <param name="value">The value; negatives count as 0 and values above the highest trackable one as that.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void RecordValue(long value) => RecordCore(value, 1);

    /// <summary>Records <paramref name="count"/> occurrences of one value.</summary>
    /// <param name="value">The value; negatives count as 0 and values above the highest trackable one as that.</param>
    /// <param name="count">How many times it occurred; 0 records nothing.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public void RecordValues(long value, long count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count != 0)
        {
            RecordCore(value, count);
        }
    }

    /// <summary>
    /// The value at or below which <paramref name="percentile"/> % of the recorded values fall: the highest value
    /// equivalent (within the precision) to the recorded value of that rank, clamped to <see cref="Max"/>.
    /// </summary>
    /// <param name="percentile">The percentile, 0 to 100; 0 gives <see cref="Min"/> and 100 gives <see cref="Max"/>.</param>
    /// <returns>The value; 0 when the histogram is empty.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="percentile"/> is not in [0, 100].</exception>
    public long ValueAtPercentile(double percentile)
    {
        if (!(percentile >= 0.0 && percentile <= 100.0))
        {
            throw new ArgumentOutOfRangeException(nameof(percentile), percentile, "The percentile must lie in [0, 100].");
        }

        if (_totalCount == 0)
        {
            return 0;
        }

        if (percentile == 0.0)
        {
            return _min;
        }

        // The rank is the smallest count of values that reaches the percentile. The tiny downward nudge absorbs the
        // rounding in percentile / 100 · n, which would otherwise push an exact rank such as 990 000 to 990 001.
        var target = percentile / 100.0 * _totalCount;
        var rank = (long)Math.Ceiling(target * (1.0 - 1e-14));
        rank = Math.Clamp(rank, 1, _totalCount);

        var cumulative = 0L;
        for (var index = 0; index < _counts.Length; index++)
        {
            cumulative += _counts[index];
            if (cumulative >= rank)
            {
                return Math.Min(HighestEquivalentOf(index), _max);
            }
        }

        return _max; // unreachable while the counts and the total agree
    }

    /// <summary>Adds every value recorded in <paramref name="other"/> to this histogram (an exact merge).</summary>
    /// <param name="other">A histogram with the same <see cref="HighestTrackableValue"/> and <see cref="SignificantDigits"/>.</param>
    /// <exception cref="ArgumentNullException"><paramref name="other"/> is null.</exception>
    /// <exception cref="ArgumentException">The two histograms have different layouts.</exception>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.HighestTrackableValue != HighestTrackableValue || other.SignificantDigits != SignificantDigits)
        {
            // Re-bucketing between layouts would lose the exactness that makes merged percentiles trustworthy.
            throw new ArgumentException(
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"Cannot merge a histogram with highest trackable value {other.HighestTrackableValue} and " +
                    $"{other.SignificantDigits} significant digits into one with {HighestTrackableValue} and " +
                    $"{SignificantDigits}; create both with the same layout."),
                nameof(other));
        }

        if (other._totalCount == 0)
        {
            return;
        }

        var source = other._counts;
        for (var index = 0; index < _counts.Length; index++)
        {
            _counts[index] += source[index];
        }

        // Read everything from other before writing, so that h.Add(h) doubles h correctly.
        var otherMin = other._min;
        var otherMax = other._max;
        _totalCount += other._totalCount;
        _overflowCount += other._overflowCount;
        _sum += other._sum;
        _min = Math.Min(_min, otherMin);
        _max = Math.Max(_max, otherMax);
    }

    /// <summary>Forgets every recorded value, keeping the layout and its memory.</summary>
    public void Reset()
    {
        Array.Clear(_counts);
        _totalCount = 0;
        _overflowCount = 0;
        _min = long.MaxValue;
        _max = 0;
        _sum = Int128.Zero;
    }

    /// <summary>Creates an independent histogram with the same layout and the same recorded values.</summary>
    /// <returns>The copy.</returns>
    public LatencyHistogram Copy()
    {
        var copy = new LatencyHistogram(HighestTrackableValue, SignificantDigits);
        Array.Copy(_counts, copy._counts, _counts.Length);
        copy._totalCount = _totalCount;
        copy._overflowCount = _overflowCount;
        copy._min = _min;
        copy._max = _max;
        copy._sum = _sum;
        return copy;
    }

    /// <summary>Calls <paramref name="visit"/> once per non-empty counter, in ascending order, with the value that
    /// stands for it (its highest equivalent value, as <see cref="ValueAtPercentile"/> reports, clamped to <see cref="Max"/>)
    /// and how many values it holds: how a histogram is replayed into another recorder without its raw values.</summary>
    /// <param name="visit">Receives value and count.</param>
    public void ForEachRecorded(Action<long, long> visit)
    {
        ArgumentNullException.ThrowIfNull(visit);
        for (var index = 0; index < _counts.Length; index++)
        {
            if (_counts[index] != 0) visit(Math.Min(HighestEquivalentOf(index), _max), _counts[index]);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void RecordCore(long value, long count)
    {
        if (value < 0)
        {
            value = 0;
        }
        else if (value > HighestTrackableValue)
        {
            value = HighestTrackableValue;
            _overflowCount += count;
        }

        _counts[IndexOf(value)] += count;
        _totalCount += count;
        // The multiplication folds away when RecordValue inlines this with count = 1.
        _sum += count == 1 ? value : (Int128)value * count;
        if (value < _min)
        {
            _min = value;
        }

        if (value > _max)
        {
            _max = value;
        }
    }

    /// <summary>The flat index of the counter for <paramref name="value"/> (which must be ≥ 0).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int IndexOf(long value)
    {
        // OR-ing in the mask puts every value below S into bucket 0; above it, each extra leading bit is one bucket.
        var bucket = 63 - BitOperations.LeadingZeroCount((ulong)(value | _subBucketMask)) - (_subBucketBits - 1);
        var subBucket = (int)(value >> bucket);

        // Bucket k ≥ 1 starts at (k + 1)·S/2 and its sub-buckets run from S/2 to S − 1, so index = k·S/2 + sub;
        // bucket 0 (sub from 0 to S − 1) fits the same formula.
        return (bucket << _subBucketHalfBits) + subBucket;
    }

    /// <summary>The smallest value that maps to the counter at <paramref name="index"/>.</summary>
    private long LowestEquivalentOf(int index, out int bucket)
    {
        bucket = (index >> _subBucketHalfBits) - 1;
        var subBucket = (long)(index & ((1 << _subBucketHalfBits) - 1)) + (1L << _subBucketHalfBits);
        if (bucket < 0)
        {
            // Indices below S belong to bucket 0, whose sub-buckets start at 0 rather than S / 2.
            bucket = 0;
            subBucket -= 1L << _subBucketHalfBits;
        }

        return subBucket << bucket;
    }

    private long HighestEquivalentOf(int index) => LowestEquivalentOf(index, out var bucket) + (1L << bucket) - 1;

    private double MidpointOf(int index)
    {
        var lowest = LowestEquivalentOf(index, out var bucket);
        return lowest + (((1L << bucket) - 1) / 2.0);
    }
}
