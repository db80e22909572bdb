namespace KafkaPerf.Reporting.Charts;

/// <summary>Latency by percentile, HDR style: the x axis spreads the tail out on a log scale of 1/(1−p), so that 50 %,
/// 90 %, 99 %, 99.9 % and 99.99 % are equally far apart; one curve per client.</summary>
internal static class LatencyChart
{
    private const double LogScaleSpread = 20;

    private static readonly (double T, double Percent)[] Decades =
        [(1, 0), (2, 50), (10, 90), (100, 99), (1e3, 99.9), (1e4, 99.99), (1e5, 99.999), (1e6, 99.9999), (1e7, 99.99999)];

    /// <param name="title">The chart's title.</param>
    /// <param name="subtitle">What was measured.</param>
    /// <param name="curves">Per client: X = percentile (0 to 100), Y = latency in microseconds; no points when the client
    /// measured no latency.</param>
    /// <param name="note">How to read the chart.</param>
    public static string Render(string title, string subtitle, IReadOnlyList<XYChart.Series> curves, string note)
    {
        var transformed = curves.Select(c => c with
        {
            Points = [.. c.Points.Where(p => p.X is >= 0 and < 100 && double.IsFinite(p.Y)).Select(p => p with { X = TailFactor(p.X) })],
        }).ToList();
        var points = transformed.SelectMany(c => c.Points).ToList();
        double maxMicros = points.Count == 0 ? 1 : points.Max(p => p.Y);
        bool millis = maxMicros >= 2_000;
        double scale = millis ? 1_000 : 1;
        var scaled = transformed.Select(c => c with { Points = [.. c.Points.Select(p => p with { Y = p.Y / scale })] }).ToList();

        var positive = scaled.SelectMany(c => c.Points).Select(p => p.Y).Where(v => v > 0).ToList();
        double min = positive.Count == 0 ? 1 : positive.Min(), max = positive.Count == 0 ? 1 : positive.Max();
        bool log = max / min > LogScaleSpread;
        var y = log ? Axis.Log(min, max, ChartFormat.Short) : Axis.LinearFromZero(max * 1.05, ChartFormat.Short);

        double tailEnd = points.Count == 0 ? 1e4 : points.Max(p => p.X);
        double xMax = Math.Max(100, Math.Pow(10, Math.Ceiling(Math.Log10(Math.Max(tailEnd, 1)) - 1e-9)));
        // Offered in this order when space is short: the named percentiles first, 0 % (the minimum) last.
        var x = Axis.LogExact(1, xMax, [.. Decades.Skip(1).Append(Decades[0]).Where(d => d.T <= xMax * (1 + 1e-9)).Select(d => (d.T, ChartFormat.Percentile(d.Percent)))]);
        string unit = millis ? "ms" : "µs";
        return new XYChart
        {
            Title = title,
            Subtitle = subtitle,
            XLabel = "percentile (log scale of 1/(1 − p))",
            YLabel = log ? $"latency ({unit}, log scale)" : $"latency ({unit})",
            X = x,
            Y = y,
            Lines = scaled,
            Note = note,
            NoDataText = "no data: no client measured latency here",
        }.Render();
    }

    /// <summary>1/(1 − p): 1 at 0 %, 10 at 90 %, 100 at 99 %.</summary>
    internal static double TailFactor(double percent) => 1 / (1 - (percent / 100));
}
