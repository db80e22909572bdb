using System.Globalization;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>
/// Where the time went per cell, one stacked bar per client: the time a record waited in the client's queue, its
/// request's round trip (network and broker), and the rest of the cell's median latency (response time at a rate, from
/// when each record was due: the send delay, the delivery callback, a consumer's fetch; send → acknowledgement for a
/// burst). The parts are the clients' own averages and the whole a median, so the bar is a reading, not an exact sum:
/// when the parts exceed the median, the rest is drawn empty and the bar's label says so.
/// </summary>
internal static class BreakdownBars
{
    private const double Width = 760, Left = 290, Right = 90, Top = 78, RowHeight = 26, BarHeight = 16;
    private const string QueueFill = "#E69F00", RequestFill = "#0072B2", RestFill = "#C8C8C8";

    /// <summary>The chart, when some produce or roundtrip run of the result has the clients' queue or request figures; a
    /// client without either in a cell gets a row that says why instead of a bar.</summary>
    public static ReportChart? For(BenchmarkResult result)
    {
        var clients = result.Plan.Clients.ToList();
        var groups = BreakdownTables.Groups(ChartRuns.Happened(result)).ToList();
        if (groups.All(g => g.Absent)) return null;
        var rows = groups.Select(g => (Cell: ChartCell(g), g.Client, Index: clients.IndexOf(g.Client), g.Queue, g.Request, Whole: g.WholeMs, g.Absent, Why: g.Why.Short))
            .OrderBy(r => r.Cell, StringComparer.Ordinal).ThenBy(r => r.Index).ToList();

        const string title = "Where the time went, per cell and client";
        double max = rows.Where(r => !r.Absent).Max(r => Math.Max(r.Whole ?? 0, (r.Queue ?? 0) + (r.Request ?? 0)));
        var x = Axis.LinearFromZero(max <= 0 ? 1 : max * 1.02, ChartFormat.Short);
        x.SetPixels(Left, Width - Right);
        const string noteText = "Orange: a record's wait in the client before its request went out; blue: the request's round trip, network and broker "
            + "(both the client's own averages over the run's measured intervals, librdkafka's statistics or the Java client's metrics); grey: the rest "
            + "of the median latency (at a rate the response time, from when each record was due; a burst's send → acknowledgement). The parts are "
            + "averages and the whole a median: '>' marks a bar whose parts exceed it. Medians over the measured runs.";
        var note = ChartTheme.Wrap(noteText, ChartTheme.NoteSize, Width - 40);
        double height = Top + (rows.Count * RowHeight) + 50 + (note.Count * (ChartTheme.NoteSize * 1.35)) + 16;
        var svg = new SvgBuilder(Width, height, title);
        svg.Text(20, 28, title, ChartTheme.TitleSize, bold: true, fill: ChartTheme.Text);
        svg.Text(20, 48, "milliseconds: queue + network and broker + the rest of the median latency", ChartTheme.SubtitleSize, fill: ChartTheme.MutedText);
        double legendX = 20;
        foreach (var (label, fill) in new[] { ("queue (client)", QueueFill), ("network + broker", RequestFill), ("rest of the median", RestFill) })
        {
            svg.Rect(legendX, 58, 12, 12, fill);
            svg.Text(legendX + 17, 68.5, label, ChartTheme.LegendSize, fill: ChartTheme.Text);
            legendX += 34 + ChartTheme.TextWidth(label, ChartTheme.LegendSize);
        }
        double axisY = Top + (rows.Count * RowHeight) + 4;
        foreach (var (value, label) in x.Ticks(horizontal: true, ChartTheme.TickSize))
        {
            double at = x.Map(value);
            svg.Line(at, Top - 2, at, axisY, ChartTheme.Grid);
            svg.Text(at, axisY + 16, label, ChartTheme.TickSize, anchor: "middle", fill: ChartTheme.MutedText);
        }
        svg.Text((Left + Width - Right) / 2, axisY + 34, "milliseconds", ChartTheme.AxisLabelSize, anchor: "middle", fill: ChartTheme.Text);
        string? previousCell = null;
        for (int i = 0; i < rows.Count; i++)
        {
            var row = rows[i];
            double y = Top + (i * RowHeight);
            string label = row.Cell == previousCell ? row.Client : $"{row.Cell}  {row.Client}";
            previousCell = row.Cell;
            svg.Text(Left - 8, y + (BarHeight * 0.8), label, ChartTheme.TickSize, anchor: "end", fill: ChartTheme.ColourOf(row.Index));
            if (row.Absent)
            {
                // No bar of zero length: a row that says why the client has none.
                svg.Text(x.Map(0) + 4, y + (BarHeight * 0.8), row.Why, ChartTheme.TickSize, fill: ChartTheme.MutedText, cssClass: "absent");
                continue;
            }
            double queue = row.Queue ?? 0, request = row.Request ?? 0;
            double rest = row.Whole is { } whole ? Math.Max(0, whole - queue - request) : 0;
            double at = x.Map(0);
            foreach (var (part, fill) in new[] { (queue, QueueFill), (request, RequestFill), (rest, RestFill) })
            {
                double width = x.Map(part) - x.Map(0);
                svg.Rect(at, y, width, BarHeight, fill);
                at += width;
            }
            bool over = row.Whole is { } w && queue + request > w;
            string total = (row.Whole is { } median ? $"{(over ? "> " : string.Empty)}{ChartFormat.Short(median)} ms" : $"{ChartFormat.Short(queue + request)} ms");
            svg.Text(Math.Min(at + 6, Width - Right + 6), y + (BarHeight * 0.8), total, ChartTheme.TickSize, fill: ChartTheme.MutedText);
        }
        double noteY = axisY + 56;
        foreach (var line in note)
        {
            svg.Text(20, noteY, line, ChartTheme.NoteSize, fill: ChartTheme.MutedText);
            noteY += ChartTheme.NoteSize * 1.35;
        }
        return new ReportChart("breakdown", ChartKind.Breakdown, title, svg.ToString());
    }

    private static string ChartCell(BreakdownGroup group) =>
        $"{group.Scenario.ToString().ToLowerInvariant()} · {ChartFormat.Bytes(group.PayloadBytes)}"
        + (group.OfferedRate is { } offered ? $" · {ChartFormat.Count(offered)} msg/s" : " · burst")
        + (group.Variant == "defaults" ? string.Empty : $" · {group.Variant}");
}
