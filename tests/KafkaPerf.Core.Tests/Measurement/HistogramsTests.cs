using HdrHistogram;
using KafkaPerf.Measurement;

namespace KafkaPerf.Core.Tests.Measurement;

public class HistogramsTests
{
    [Fact]
    public void RecordClamped_NegativeAndBeyondAnHour_RecordedAtTheEdgesInsteadOfThrowing()
    {
        var histogram = Histograms.Create();

        histogram.RecordClamped(-5);
        histogram.RecordClamped(Histograms.HighestTrackableValue * 2);

        Assert.Equal(2, histogram.TotalCount);
        Assert.Equal(0, histogram.Min());
        Assert.InRange(histogram.GetMaxValue(), Histograms.HighestTrackableValue * 0.995, Histograms.HighestTrackableValue * 1.005);
        // HdrHistogram.NET itself throws: the clamp is what keeps a record of a stalled run from failing it.
        Assert.ThrowsAny<Exception>(() => Histograms.Create().RecordValue(Histograms.HighestTrackableValue * 2));
    }

    [Fact]
    public void Merge_ThreeHistograms_EqualsOneHistogramOfEveryValue()
    {
        var random = new Random(7);
        var parts = new[] { Histograms.Create(), Histograms.Create(), Histograms.Create() };
        var whole = Histograms.Create();
        for (int i = 0; i < 30_000; i++)
        {
            long value = (long)Math.Pow(10, 3 + (random.NextDouble() * 6));
            parts[i % 3].RecordClamped(value);
            whole.RecordClamped(value);
        }

        var merged = Histograms.Merge(parts)!;

        Assert.Equal(whole.TotalCount, merged.TotalCount);
        foreach (var percentile in new[] { 0.0, 50, 90, 99, 99.9, 99.99, 100 })
            Assert.Equal(whole.GetValueAtPercentile(percentile), merged.GetValueAtPercentile(percentile));
        Assert.Equal(whole.GetMaxValue(), merged.GetMaxValue());
    }

    [Fact]
    public void Merge_NothingRecorded_IsNull() => Assert.Null(Histograms.Merge([Histograms.Create(), null]));

    [Fact]
    public void Min_ThreeSignificantDigits_WithinOnePartInAThousand()
    {
        var histogram = Histograms.Create();
        histogram.RecordClamped(123_456_789);
        histogram.RecordClamped(987_654_321);

        Assert.InRange(histogram.Min(), 123_456_789 * 0.999, 123_456_789);
        Assert.InRange(LatencySummary.From(histogram, 1_000).MinMicros, 123_456.789 * 0.999, 123_456.789);
    }

    [Fact]
    public void Recorder_ManyWriters_IntervalsAddUpToEveryValue()
    {
        var recorder = Histograms.CreateRecorder();
        var interval = Histograms.Create();
        var total = Histograms.Create();
        using var stop = new CancellationTokenSource();
        var writers = Enumerable.Range(0, 3).Select(w => Task.Run(() =>
        {
            for (int i = 1; i <= 100_000; i++) recorder.RecordClamped(i * 10 + w);
        })).ToArray();
        while (!Task.WhenAll(writers).IsCompleted)
        {
            recorder.GetIntervalHistogramInto(interval);
            total.Add(interval);
            Thread.Sleep(1);
        }
        recorder.GetIntervalHistogramInto(interval);
        total.Add(interval);

        Assert.Equal(300_000, total.TotalCount);
    }

    [Fact]
    public void ForEachRecorded_Replayed_GivesTheSameCountAndPercentiles()
    {
        var histogram = Histograms.Create();
        for (int i = 1; i <= 10_000; i++) histogram.RecordClamped(i * 997L);
        var replayed = Histograms.Create();

        histogram.ForEachRecorded((value, count) => replayed.RecordValueWithCount(value, count));

        Assert.Equal(histogram.TotalCount, replayed.TotalCount);
        Assert.Equal(histogram.GetValueAtPercentile(99), replayed.GetValueAtPercentile(99));
    }
}
