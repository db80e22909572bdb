namespace KafkaPerf.Reporting.Charts;

/// <summary>Throughput against payload size, one line per client: the median of the measured runs with a min–max
/// whisker, payload sizes on a log axis.</summary>
internal static class ThroughputChart
{
    /// <summary>Beyond this ratio of the largest to the smallest value a linear axis would flatten the small payloads.</summary>
    private const double LogScaleSpread = 8;

    /// <param name="title">The chart's title.</param>
    /// <param name="subtitle">What was measured.</param>
    /// <param name="payloadSizes">Every payload size of the plan, even those without data: the x ticks.</param>
    /// <param name="series">Per client: X = payload bytes, Y = median messages/s, Low/High = min/max.</param>
    /// <param name="note">How to read the chart.</param>
    public static string Render(string title, string subtitle, IReadOnlyList<long> payloadSizes, IReadOnlyList<XYChart.Series> series, string note)
    {
        var sizes = payloadSizes.Where(s => s > 0).Distinct().Order().ToList();
        var values = series.SelectMany(s => s.Points)
            .Where(p => double.IsFinite(p.X) && double.IsFinite(p.Y))
            .SelectMany(p => new[] { p.Y, p.Low, p.High })
            .Where(v => double.IsFinite(v) && v > 0)
            .ToList();
        double min = values.Count == 0 ? 1 : values.Min(), max = values.Count == 0 ? 1 : values.Max();
        bool log = max / min > LogScaleSpread;
        var y = log ? Axis.Log(min, max, ChartFormat.Count) : Axis.LinearFromZero(max * 1.05, ChartFormat.Count);
        var x = Axis.Log(sizes.Count == 0 ? 1 : sizes[0], sizes.Count == 0 ? 1 : sizes[^1], ChartFormat.Bytes,
            fixedTicks: [.. sizes.Select(s => ((double)s, ChartFormat.Bytes(s)))]);
        return new XYChart
        {
            Title = title,
            Subtitle = subtitle,
            XLabel = "payload size (bytes, log scale)",
            YLabel = log ? "throughput (messages/s, log scale)" : "throughput (messages/s)",
            X = x,
            Y = y,
            Lines = series,
            Note = note,
            Dodge = series.Count > 1 ? 7 : 0,
            NoDataText = "no data: no measured run succeeded",
        }.Render();
    }
}
