using KafkaPerf.Measurement;

namespace KafkaPerf.Core.Tests.Measurement;

public sealed class LatencyHistogramTests
{
    private static readonly double[] PercentilesToCompare =
        [0, 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 99.999, 100];

    [Fact]
    public void Constructor_Defaults_TrackOneHourInNanosecondsWithThreeDigits()
    {
        var histogram = new LatencyHistogram();

        Assert.Equal(3_600_000_000_000, histogram.HighestTrackableValue);
        Assert.Equal(3, histogram.SignificantDigits);
        Assert.Equal(0, histogram.TotalCount);
    }

    [Fact]
    public void Constructor_DefaultLayout_UsesAFewHundredKilobytes()
    {
        _ = new LatencyHistogram(); // warm up type loading so that only the instance is measured
        var before = GC.GetAllocatedBytesForCurrentThread();

        _ = new LatencyHistogram();

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.InRange(allocated, 1, 400 * 1024);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(6)]
    public void Constructor_SignificantDigitsOutsideOneToFive_Throws(int digits)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyHistogram(1_000_000, digits));
    }

    [Fact]
    public void Constructor_HighestTrackableBelowOne_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyHistogram(0));
    }

    [Fact]
    public void ValueAtPercentile_UniformOneToMillion_MatchesExactPercentilesWithinPrecision()
    {
        var histogram = new LatencyHistogram();
        for (long value = 1; value <= 1_000_000; value++)
        {
            histogram.RecordValue(value);
        }

        Assert.Equal(1_000_000, histogram.TotalCount);
        Assert.Equal(1, histogram.Min);
        Assert.Equal(1_000_000, histogram.Max);
        Assert.Equal(500_000.5, histogram.Mean, 1e-9);

        // Population SD of 1..n is √((n² − 1) / 12).
        Assert.Equal(Math.Sqrt((1e12 - 1) / 12), histogram.StandardDeviation, 288_675 * 1e-3);

        AssertWithinPrecision(500_000, histogram.ValueAtPercentile(50));
        AssertWithinPrecision(900_000, histogram.ValueAtPercentile(90));
        AssertWithinPrecision(990_000, histogram.ValueAtPercentile(99));
        AssertWithinPrecision(999_000, histogram.ValueAtPercentile(99.9));
        Assert.Equal(1_000_000, histogram.ValueAtPercentile(100));
        Assert.Equal(1, histogram.ValueAtPercentile(0));
    }

    [Fact]
    public void ValueAtPercentile_SmallValues_AreExact()
    {
        // Below 2048 (with 3 digits) every value has its own counter.
        var histogram = new LatencyHistogram();
        for (long value = 1; value <= 1000; value++)
        {
            histogram.RecordValue(value);
        }

        Assert.Equal(500, histogram.ValueAtPercentile(50));
        Assert.Equal(990, histogram.ValueAtPercentile(99));
        Assert.Equal(999, histogram.ValueAtPercentile(99.9));
        Assert.Equal(1, histogram.ValueAtPercentile(0.1));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    public void ValueAtPercentile_RandomValues_NeverBelowAndWithinRelativePrecision(int digits)
    {
        const int Count = 250;
        var random = new Random(digits);
        var values = new long[Count];
        var histogram = new LatencyHistogram(2_000_000_000_000, digits);
        for (var i = 0; i < Count; i++)
        {
            values[i] = (long)Math.Exp(random.NextDouble() * Math.Log(1e12)); // spread over 12 decades
            histogram.RecordValue(values[i]);
        }

        Array.Sort(values);
        var tolerance = Math.Pow(10, -digits);
        for (var rank = 1; rank <= Count; rank++)
        {
            // The percentile whose rank is exactly `rank` reports the top of that value's bucket.
            var reported = histogram.ValueAtPercentile(100.0 * rank / Count);

            var value = values[rank - 1];
            Assert.InRange(reported, value, value + (long)(value * tolerance));
        }
    }

    [Fact]
    public void Add_TwoHalves_EqualsRecordingEverythingIntoOne()
    {
        var random = new Random(42);
        var all = new LatencyHistogram();
        var first = new LatencyHistogram();
        var second = new LatencyHistogram();
        for (var i = 0; i < 200_000; i++)
        {
            // Log-normal around 1 ms, with the long tail latencies have.
            var value = (long)(1_000_000 * Math.Exp(0.8 * NextStandardNormal(random)));
            all.RecordValue(value);
            (i % 3 == 0 ? first : second).RecordValue(value);
        }

        first.Add(second);

        Assert.Equal(all.TotalCount, first.TotalCount);
        Assert.Equal(all.Min, first.Min);
        Assert.Equal(all.Max, first.Max);
        Assert.Equal(all.Mean, first.Mean, 1e-9);
        Assert.Equal(all.StandardDeviation, first.StandardDeviation, 1e-6);
        foreach (var percentile in PercentilesToCompare)
        {
            Assert.Equal(all.ValueAtPercentile(percentile), first.ValueAtPercentile(percentile));
        }
    }

    [Fact]
    public void Add_FastAndSlowHistograms_MergedP99DiffersFromAveragedP99()
    {
        const long OneMillisecond = 1_000_000;
        const long HundredMilliseconds = 100_000_000;
        var fast = new LatencyHistogram();
        fast.RecordValues(OneMillisecond, 1000);
        var slow = new LatencyHistogram();
        slow.RecordValues(HundredMilliseconds, 10);
        var averagedP99 = (fast.ValueAtPercentile(99) + slow.ValueAtPercentile(99)) / 2.0;

        fast.Add(slow);

        // 99 % of 1010 values is rank 1000, the last 1 ms value; averaging would claim about 50 ms.
        var mergedP99 = fast.ValueAtPercentile(99);
        AssertWithinPrecision(OneMillisecond, mergedP99);
        Assert.True(averagedP99 > 40 * mergedP99, $"averaged {averagedP99}, merged {mergedP99}");
        AssertWithinPrecision(HundredMilliseconds, fast.ValueAtPercentile(99.9));
        Assert.Equal(1010, fast.TotalCount);
        Assert.Equal(HundredMilliseconds, fast.Max);
    }

    [Fact]
    public void Add_Itself_DoublesEveryCount()
    {
        var histogram = new LatencyHistogram();
        histogram.RecordValue(10);
        histogram.RecordValue(5_000);
        histogram.RecordValue(3_000_000);

        histogram.Add(histogram);

        Assert.Equal(6, histogram.TotalCount);
        Assert.Equal(10, histogram.ValueAtPercentile(33.3));
        Assert.Equal(10, histogram.Min);
        Assert.Equal(3_000_000, histogram.Max);
    }

    [Fact]
    public void Add_DifferentLayout_ThrowsArgumentException()
    {
        var histogram = new LatencyHistogram();

        Assert.Throws<ArgumentException>(() => histogram.Add(new LatencyHistogram(significantDigits: 2)));
        Assert.Throws<ArgumentException>(() => histogram.Add(new LatencyHistogram(highestTrackableValue: 1_000_000)));
    }

    [Fact]
    public void RecordValue_OutOfRange_ClampsAndCountsOverflow()
    {
        var histogram = new LatencyHistogram(highestTrackableValue: 1_000_000);

        histogram.RecordValue(-5);
        histogram.RecordValue(2_000_000);
        histogram.RecordValues(5_000_000, 3);
        histogram.RecordValue(1_000_000); // exactly the limit is not an overflow

        Assert.Equal(6, histogram.TotalCount);
        Assert.Equal(4, histogram.OverflowCount);
        Assert.Equal(0, histogram.Min);
        Assert.Equal(1_000_000, histogram.Max);
        Assert.Equal(1_000_000, histogram.ValueAtPercentile(100));
        Assert.Equal(5_000_000.0 / 6, histogram.Mean, 1e-9);
    }

    [Fact]
    public void RecordValues_ZeroCount_RecordsNothing()
    {
        var histogram = new LatencyHistogram();

        histogram.RecordValues(123, 0);

        Assert.Equal(0, histogram.TotalCount);
        Assert.Equal(0, histogram.Max);
    }

    [Fact]
    public void RecordValues_NegativeCount_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyHistogram().RecordValues(1, -1));
    }

    [Fact]
    public void RecordValues_Many_EqualsRepeatedRecordValue()
    {
        var repeated = new LatencyHistogram();
        var counted = new LatencyHistogram();
        for (var i = 0; i < 500; i++)
        {
            repeated.RecordValue(70_000);
        }

        counted.RecordValues(70_000, 500);

        Assert.Equal(repeated.TotalCount, counted.TotalCount);
        Assert.Equal(repeated.Mean, counted.Mean);
        Assert.Equal(repeated.ValueAtPercentile(50), counted.ValueAtPercentile(50));
    }

    [Fact]
    public void Empty_Histogram_ReportsZeros()
    {
        var histogram = new LatencyHistogram();

        Assert.Equal(0, histogram.Min);
        Assert.Equal(0, histogram.Max);
        Assert.Equal(0, histogram.Mean);
        Assert.Equal(0, histogram.StandardDeviation);
        Assert.Equal(0, histogram.ValueAtPercentile(99));
    }

    [Theory]
    [InlineData(-0.1)]
    [InlineData(100.1)]
    [InlineData(double.NaN)]
    public void ValueAtPercentile_OutsideZeroToHundred_Throws(double percentile)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyHistogram().ValueAtPercentile(percentile));
    }

    [Fact]
    public void Reset_AfterRecording_ForgetsEverythingAndRecordsAgain()
    {
        var histogram = new LatencyHistogram(highestTrackableValue: 1_000);
        histogram.RecordValue(5);
        histogram.RecordValue(50_000);

        histogram.Reset();

        Assert.Equal(0, histogram.TotalCount);
        Assert.Equal(0, histogram.OverflowCount);
        Assert.Equal(0, histogram.Min);
        Assert.Equal(0, histogram.Max);
        Assert.Equal(0, histogram.Mean);
        Assert.Equal(0, histogram.ValueAtPercentile(50));

        histogram.RecordValue(7);
        Assert.Equal(7, histogram.Min);
        Assert.Equal(7, histogram.Max);
        Assert.Equal(7, histogram.ValueAtPercentile(50));
        Assert.Equal(1, histogram.TotalCount);
    }

    [Fact]
    public void Copy_ThenRecordIntoEither_LeavesTheOtherUnchanged()
    {
        var original = new LatencyHistogram(highestTrackableValue: 10_000_000);
        original.RecordValue(1_000);
        original.RecordValue(20_000_000);

        var copy = original.Copy();

        Assert.Equal(original.TotalCount, copy.TotalCount);
        Assert.Equal(original.OverflowCount, copy.OverflowCount);
        Assert.Equal(original.HighestTrackableValue, copy.HighestTrackableValue);
        Assert.Equal(original.SignificantDigits, copy.SignificantDigits);
        foreach (var percentile in PercentilesToCompare)
        {
            Assert.Equal(original.ValueAtPercentile(percentile), copy.ValueAtPercentile(percentile));
        }

        original.RecordValue(1);
        copy.RecordValues(5_000_000, 10);

        Assert.Equal(3, original.TotalCount);
        Assert.Equal(1, original.Min);
        Assert.Equal(12, copy.TotalCount);
        Assert.Equal(1_000, copy.Min);
        Assert.Equal(1_000, original.ValueAtPercentile(50));
        AssertWithinPrecision(5_000_000, copy.ValueAtPercentile(50));
    }

    [Fact]
    public void RecordValue_MillionRecordings_AllocatesNothing()
    {
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 10_000; i++)
        {
            histogram.RecordValue(i * 977L); // warm-up: let the JIT compile and tier up first
        }

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1_000_000; i++)
        {
            histogram.RecordValue(i * 3_601L);
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.Equal(1_010_000, histogram.TotalCount);
    }

    [Fact]
    public void LatencySummaryFrom_NanosecondHistogram_ConvertsToMicroseconds()
    {
        var histogram = new LatencyHistogram();
        for (long value = 1; value <= 10_000; value++)
        {
            histogram.RecordValue(value * 1_000); // 1 µs to 10 ms in nanoseconds
        }

        var summary = LatencySummary.From(histogram, unitsPerMicrosecond: 1_000);

        Assert.Equal(10_000, summary.Count);
        Assert.Equal(1.0, summary.MinMicros);
        Assert.Equal(10_000.0, summary.MaxMicros);
        Assert.Equal(5_000.5, summary.MeanMicros, 1e-9);
        Assert.Equal(histogram.StandardDeviation / 1_000, summary.StandardDeviationMicros, 1e-9);
        Assert.Equal(histogram.ValueAtPercentile(50) / 1_000.0, summary.P50Micros);
        Assert.Equal(histogram.ValueAtPercentile(90) / 1_000.0, summary.P90Micros);
        Assert.Equal(histogram.ValueAtPercentile(95) / 1_000.0, summary.P95Micros);
        Assert.Equal(histogram.ValueAtPercentile(99) / 1_000.0, summary.P99Micros);
        Assert.Equal(histogram.ValueAtPercentile(99.9) / 1_000.0, summary.P999Micros);
        Assert.Equal(histogram.ValueAtPercentile(99.99) / 1_000.0, summary.P9999Micros);
        Assert.InRange(summary.P50Micros, 5_000, 5_000 * 1.001);
        Assert.InRange(summary.P99Micros, 9_900, 9_900 * 1.001);
    }

    [Fact]
    public void LatencySummaryFrom_EmptyHistogram_ReturnsEmpty()
    {
        var summary = LatencySummary.From(new LatencyHistogram(), 1_000);

        Assert.Same(LatencySummary.Empty, summary);
        Assert.Equal(0, summary.Count);
        Assert.True(double.IsNaN(summary.P99Micros));
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(-1.0)]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    public void LatencySummaryFrom_InvalidUnits_Throws(double unitsPerMicrosecond)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => LatencySummary.From(new LatencyHistogram(), unitsPerMicrosecond));
    }

    /// <summary>The histogram never understates and overstates by at most its 3-digit precision.</summary>
    private static void AssertWithinPrecision(long expected, long actual) =>
        Assert.InRange(actual, expected, expected + (expected / 1_000));

    private static double NextStandardNormal(Random random)
    {
        var u1 = 1.0 - random.NextDouble();
        var u2 = random.NextDouble();
        return Math.Sqrt(-2.0 * Math.Log(u1)) * Math.Cos(2.0 * Math.PI * u2);
    }
}
