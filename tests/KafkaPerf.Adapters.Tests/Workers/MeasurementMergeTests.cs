using HdrHistogram;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Measurement;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Workers;

public class MeasurementMergeTests
{
    /// <summary>Three workers' measurements of random latencies, and one histogram of every value they recorded.</summary>
    private static (List<RunRecord> Parts, LongHistogram Whole) ThreeWorkers()
    {
        var random = new Random(11);
        var whole = Histograms.Create();
        var parts = new List<RunRecord>();
        for (int w = 0; w < 3; w++)
        {
            var response = Histograms.Create();
            var intervals = new List<IntervalRecord>();
            int count = 5_000 + (w * 1_000);
            for (int i = 0; i < 2; i++)
            {
                var interval = Histograms.Create();
                for (int k = 0; k < count / 2; k++)
                {
                    // Each worker its own spread: a merge of percentiles would be visibly wrong.
                    long value = (long)(Math.Pow(10, 4 + (random.NextDouble() * 3)) * (w + 1));
                    response.RecordClamped(value);
                    interval.RecordClamped(value);
                    whole.RecordClamped(value);
                }
                intervals.Add(new IntervalRecord
                {
                    Index = i, StartSeconds = i, LengthSeconds = 1, Warmup = false, Sent = count / 2, Acknowledged = count / 2, Consumed = 0,
                    MegabytesPerSecond = 1, InFlight = 0,
                    EncodedHistograms = new Dictionary<string, byte[]> { ["response"] = HistogramCodec.Encode(interval) },
                });
            }
            parts.Add(new RunRecord
            {
                ElapsedSeconds = 2 + w, Sent = count, Delivered = count, LatencyHistogram = response, ResponseTimeHistogram = response,
                AchievedRate = count / 2.0, OfferedRate = count / 2.0, Producers = 1, Intervals = intervals,
                CountersPerMessage = new Dictionary<string, double> { ["jni"] = w + 1 },
            });
        }
        return (parts, whole);
    }

    [Fact]
    public void Merge_ThreeWorkers_CountsAreTheSumAndPercentilesThoseOfEverySampleTogether()
    {
        var (parts, whole) = ThreeWorkers();

        var merged = MeasurementMerge.Merge([.. parts.Select((m, i) => new WorkerPart { Worker = $"w{i}", Index = i, Host = "host", ProcessId = 100 + i, Records = m.Sent, Producers = 1, Run = m })]);

        Assert.True(merged.Succeeded);
        Assert.Equal(parts.Sum(p => p.Sent), merged.Sent);
        Assert.Equal(parts.Sum(p => p.Delivered), merged.Delivered);
        Assert.Equal(parts.Sum(p => p.AchievedRate!.Value), merged.AchievedRate);
        Assert.Equal(4, merged.ElapsedSeconds);
        Assert.Equal(3, merged.Producers);
        Assert.Equal(whole.TotalCount, merged.ResponseTimeHistogram!.TotalCount);
        foreach (var percentile in new[] { 0.0, 50, 90, 99, 99.9, 100 })
            Assert.Equal(whole.GetValueAtPercentile(percentile), merged.ResponseTimeHistogram.GetValueAtPercentile(percentile));
        // Weighted by records: (1×5000 + 2×6000 + 3×7000) / 18000.
        Assert.Equal(38_000.0 / 18_000, merged.CountersPerMessage!["jni"], 9);
        Assert.Equal(3, merged.Workers!.Count);
        Assert.Equal(parts.Select(p => p.Sent), merged.Workers.Select(w => w.Sent));
    }

    [Fact]
    public void Merge_Intervals_AddedIntervalByIntervalFromTheRecordedValues()
    {
        var (parts, whole) = ThreeWorkers();

        var merged = MeasurementMerge.Merge([.. parts.Select((m, i) => new WorkerPart { Worker = $"w{i}", Index = i, Host = null, ProcessId = null, Records = m.Sent, Producers = 1, Run = m })]);

        Assert.Equal(2, merged.Intervals!.Count);
        Assert.Equal(whole.TotalCount, merged.Intervals.Sum(i => i.ResponseTime!.Count));
        Assert.Equal(parts.Sum(p => p.Intervals![0].Sent), merged.Intervals[0].Sent);
        var both = Histograms.Merge(merged.Intervals.Select(i => HistogramCodec.Decode(i.EncodedHistograms!["response"])))!;
        Assert.Equal(whole.GetValueAtPercentile(99), both.GetValueAtPercentile(99));
    }

    [Fact]
    public void Merge_AWorkerThatStartedLate_TheRunLastsFromTheAgreedStartToItsEnd()
    {
        var (parts, _) = ThreeWorkers();

        // Elapsed 2, 3 and 4 s; the first heard "start" 2.5 s late, so it ended 4.5 s after the agreed moment.
        var merged = MeasurementMerge.Merge([.. parts.Select((m, i) => new WorkerPart
        {
            Worker = $"w{i}", Index = i, Records = m.Sent, Producers = 1, Run = m, StartedLateSeconds = i == 0 ? 2.5 : 0,
        })]);

        Assert.Equal(4.5, merged.ElapsedSeconds);
        Assert.Equal(2.5, merged.Workers![0].StartedLateSeconds);
    }

    [Fact]
    public void Merge_AWorkerThatWentAway_FailsTheRunNamesItAndLeavesItsShareNotVerified()
    {
        var (parts, _) = ThreeWorkers();

        var merged = MeasurementMerge.Merge(
        [
            new WorkerPart { Worker = "w0", Index = 0, Host = null, ProcessId = null, Records = parts[0].Sent, Producers = 1, Run = parts[0] },
            new WorkerPart { Worker = "w1", Index = 1, Host = null, ProcessId = null, Records = 6_000, Producers = 1, Run = null, Error = "stopped answering during run 3" },
            new WorkerPart { Worker = "w2", Index = 2, Host = null, ProcessId = null, Records = parts[2].Sent, Producers = 1, Run = parts[2] },
        ]);

        Assert.False(merged.Succeeded);
        Assert.Contains("worker w1: stopped answering", merged.Error, StringComparison.Ordinal);
        // Nothing is known of the records of a worker that went away: not verified, never counted lost.
        Assert.Equal(0, merged.Lost);
        Assert.Equal(6_000, merged.NotVerified);
        Assert.Equal("worker w1 sent nothing back: its 6000 records are not verified", merged.NotVerifiedReason);
        Assert.Equal(parts[0].Sent + parts[2].Sent, merged.Sent);
        Assert.NotNull(merged.Workers![1].Error);
        Assert.Null(merged.Workers[0].Error);
    }

    [Fact]
    public void Wire_RoundTrip_KeepsCountsHistogramsAndIntervalHistograms()
    {
        var (parts, _) = ThreeWorkers();
        var original = parts[1] with { ElapsedSeconds = double.NaN, Error = "x" };

        var copy = MeasurementWire.Deserialize(MeasurementWire.Serialize(original));

        Assert.Equal(original.Sent, copy.Sent);
        Assert.True(double.IsNaN(copy.ElapsedSeconds));
        Assert.Equal("x", copy.Error);
        Assert.Equal(original.ResponseTimeHistogram!.TotalCount, copy.ResponseTimeHistogram!.TotalCount);
        Assert.Equal(original.ResponseTimeHistogram.GetValueAtPercentile(99.9), copy.ResponseTimeHistogram.GetValueAtPercentile(99.9));
        Assert.Equal(original.Intervals!.Count, copy.Intervals!.Count);
        Assert.Equal(original.Intervals[1].EncodedHistograms!["response"], copy.Intervals[1].EncodedHistograms!["response"]);
        Assert.Equal(original.CountersPerMessage, copy.CountersPerMessage);
    }
}
