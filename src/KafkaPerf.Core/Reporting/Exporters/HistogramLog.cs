using KafkaPerf.Measurement;
using System.Globalization;
using HdrHistogram;
using HdrHistogram.Utilities;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>
/// The interval histograms of every load run in HdrHistogram's log format (<c>.hlog</c>, version 1.3), in ASCII, so that
/// HdrHistogram's own tools (HistogramLogProcessor, HistogramLogReader in Java or .NET) can merge and re-analyse them.
/// One line per run, interval and metric, tagged <c>run-SEQUENCE/CLIENT/SCENARIO/SIZEB/RATE/METRIC</c> (metric:
/// <c>response</c>, <c>service</c> or <c>send-delay</c>); values are nanoseconds, the interval maximum column is in
/// milliseconds (the format's usual ratio of 10^6).
/// </summary>
/// <remarks>HdrHistogram.NET's own <c>HistogramLogWriter</c> writes UTF-16, which the Java tools do not read; the lines
/// here are the same, in ASCII.</remarks>
public static class HistogramLog
{
    private const double MaxValueUnitRatio = 1e6;

    /// <summary>Writes the log of a result's load runs.</summary>
    /// <param name="result">The result.</param>
    /// <param name="writer">Where the text goes.</param>
    public static void Write(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        var runs = result.Runs.Where(r => r.Intervals is { Count: > 0 } && r.StartedAtUtc is not null).ToList();
        var start = runs.Count > 0 ? runs.Min(r => r.StartedAtUtc!.Value) : result.StartedAtUtc;
        writer.Write("#[Histogram log format version 1.3]\n");
        writer.Write(string.Create(CultureInfo.InvariantCulture,
            $"#[StartTime: {start.ToUnixTimeMilliseconds() / 1000.0:0.000} (seconds since epoch), {start.UtcDateTime:O}]\n"));
        writer.Write("#[KafkaPerf: values in nanoseconds; tags run-SEQUENCE/CLIENT/SCENARIO/SIZE/RATE/METRIC]\n");
        writer.Write("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n");
        foreach (var run in runs)
        {
            string rate = run.OfferedRate is { } r ? string.Create(CultureInfo.InvariantCulture, $"{r:0.###}rps") : "burst";
            foreach (var interval in run.Intervals!)
            {
                if (interval.EncodedHistograms is null) continue;
                double startSeconds = (run.StartedAtUtc!.Value.ToUnixTimeMilliseconds() / 1000.0) + interval.StartSeconds;
                foreach (var (metric, encoded) in interval.EncodedHistograms.OrderBy(p => p.Key, StringComparer.Ordinal))
                {
                    var histogram = HistogramCodec.Decode(encoded);
                    string tag = string.Create(CultureInfo.InvariantCulture,
                        $"run-{run.Sequence}/{run.Client}/{run.Scenario.ToString().ToLowerInvariant()}/{run.PayloadBytes}B/{rate}/{metric}");
                    writer.Write(string.Create(CultureInfo.InvariantCulture,
                        $"Tag={tag},{startSeconds:0.000},{interval.LengthSeconds:0.000},{histogram.GetMaxValue() / MaxValueUnitRatio:0.000},{Convert.ToBase64String(encoded)}\n"));
                }
            }
        }
    }
}
