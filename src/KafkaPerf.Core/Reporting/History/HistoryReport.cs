using System.Globalization;
using System.Net;
using System.Text;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Reporting.History;

/// <summary><c>history trend</c>: a table per cell and an HTML report with one chart per cell (every client's metric
/// over the stored results, each point with its interval, the points the gate flagged marked).</summary>
public static class HistoryReport
{
    /// <summary>Writes the trend tables (<see cref="HistoryTables.Trend"/>) as Markdown, a <c>###</c> heading per cell.</summary>
    /// <param name="points">The points, oldest first.</param>
    /// <param name="percent">The gate's allowed slowdown, for the flag.</param>
    /// <param name="writer">Where to write.</param>
    public static void WriteMarkdown(IReadOnlyList<TrendPoint> points, double percent, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(points);
        ArgumentNullException.ThrowIfNull(writer);
        // Level 3: the cells are the parts of one answer, under whatever heading the reader pastes them.
        foreach (var section in HistoryTables.Trend(points, percent)) MarkdownExporter.WriteSection(section, writer, level: 3);
    }

    /// <summary>Writes the trend as a self-contained HTML page: one chart per cell, every client a line.</summary>
    /// <param name="points">The points, oldest first.</param>
    /// <param name="percent">The gate's allowed slowdown, for the flags.</param>
    /// <param name="title">The page's title.</param>
    /// <returns>The page.</returns>
    public static string Html(IReadOnlyList<TrendPoint> points, double percent, string title)
    {
        ArgumentNullException.ThrowIfNull(points);
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").Append(WebUtility.HtmlEncode(title)).Append("</title>\n")
            .Append("<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;font-size:13px;margin:1em 0 2em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f4f4f4}.right{text-align:right}</style></head><body>\n")
            .Append("<h1>").Append(WebUtility.HtmlEncode(title)).Append("</h1>\n<p>")
            .Append(WebUtility.HtmlEncode(string.Create(CultureInfo.InvariantCulture,
                $"{points.Select(p => p.ResultId).Distinct().Count()} stored results, {points.Select(p => p.Cell with { Client = string.Empty }).Distinct().Count()} cells. Each point: a result's median over its runs, with the interval of that median; a point the gate flagged (slower than the results before it by more than {percent:0.#} %, with 95 % confidence) is marked with a large marker of its own.")))
            .Append("</p>\n");
        var order = points.Select(p => p.ResultId).Distinct().Order().Select((id, i) => (id, i)).ToDictionary(x => x.id, x => x.i + 1);
        foreach (var cell in points.GroupBy(p => p.Cell with { Client = string.Empty }))
        {
            var chart = Chart(cell.Key, [.. cell], order, percent);
            html.Append("<section><h2>").Append(WebUtility.HtmlEncode(Describe(cell.Key))).Append("</h2>\n").Append(chart).Append('\n');
            using (var table = new StringWriter(html, CultureInfo.InvariantCulture) { NewLine = "\n" }) HtmlExporter.WriteBlocks(table, [HistoryTables.TrendOfCell(cell, percent)]);
            html.Append("</section>\n");
        }
        return html.Append("</body></html>\n").ToString();
    }

    private static string Chart(CellKey cell, IReadOnlyList<TrendPoint> points, Dictionary<long, int> order, double percent)
    {
        bool micros = cell.OfferedRate is not null;
        var values = points.SelectMany(p => new[] { p.Median, p.Interval.Low, p.Interval.High }).Where(v => double.IsFinite(v) && v > 0).ToList();
        double scale = micros && values.Count > 0 && values.Max() >= 2_000 ? 1_000 : 1;
        string unit = cell.OfferedRate is null ? "elapsed s" : scale == 1 ? "p99 response µs" : "p99 response ms";
        var clients = points.Select(p => p.Cell.Client).Distinct().ToList();
        // A stored result that ran this cell without the client is a gap in the client's line, as is one whose runs all
        // failed (a NaN median): a segment across it would draw a trend through a result that measured nothing of it.
        var results = points.Select(p => p.ResultId).Distinct().ToList();
        var lines = clients.Select((client, index) => new XYChart.Series(client, index,
            [.. results.Select(id => points.FirstOrDefault(p => p.ResultId == id && p.Cell.Client == client) is { } p
                ? new XYChart.Point(order[id], p.Median / scale, p.Interval.Low / scale, p.Interval.High / scale)
                : new XYChart.Point(order[id], double.NaN))],
            Markers: true, Whiskers: true)).ToList();
        var flagged = points.Where(p => p.Flagged(percent)).Select(p => new XYChart.Point(order[p.ResultId], p.Median / scale)).ToList();
        if (flagged.Count > 0) lines.Add(new XYChart.Series($"flagged by the gate (> {percent:0.#} % slower)", clients.Count, flagged, Markers: true, Whiskers: false, Line: false, MarkerSize: 9));
        double max = values.Count > 0 ? values.Max() / scale : 1;
        var chart = new XYChart
        {
            Title = string.Create(CultureInfo.InvariantCulture, $"{cell.Scenario.ToString().ToLowerInvariant()} {cell.MessageCount} × {cell.PayloadBytes} B{(cell.OfferedRate is { } rate ? $" at {rate:0.###} msg/s" : " (burst)")}"),
            Subtitle = $"{unit} per stored result (median, whiskers: its interval); lower is better · settings: {cell.Variant}",
            XLabel = "stored results, oldest first (the table gives each one's date)",
            YLabel = unit,
            X = Axis.LinearFromZero(order.Count + 1, v => v.ToString("0", CultureInfo.InvariantCulture)),
            Y = Axis.LinearFromZero(max * 1.1, ChartFormat.Short),
            Lines = lines,
        };
        return chart.Render();
    }

    private static string Describe(CellKey cell) => string.Create(CultureInfo.InvariantCulture,
        $"{cell.Scenario.ToString().ToLowerInvariant()} {cell.MessageCount} × {cell.PayloadBytes} B{(cell.OfferedRate is { } rate ? $" at {rate:0.###} msg/s" : " (burst)")}, {cell.Variant}");
}
