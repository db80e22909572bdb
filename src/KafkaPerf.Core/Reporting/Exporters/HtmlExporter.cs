using System.Globalization;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Tables;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>
/// One self-contained HTML page: the environment, plan and clients, the charts of <see cref="ReportCharts"/> as inline
/// SVG, and the report of <see cref="ResultTables.Document"/> (the tables the Markdown shows), rendered here as HTML
/// headings, lists and tables. Inline CSS, no script and no URL, so it reads the same offline, attached to a ticket or
/// years later. Each chart is also written beside it as <c>{baseName}-{chart}.svg</c>.
/// </summary>
public sealed class HtmlExporter : ResultExporterBase
{
    private const string Style = """
        :root { color-scheme: light; }
        body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif; color: #222; background: #fff;
          margin: 0 auto; padding: 1.5rem 2rem 3rem; max-width: 1600px; line-height: 1.45; font-size: 15px; }
        h1 { font-size: 1.7rem; margin: 0 0 .6rem; }
        h2 { font-size: 1.35rem; margin: 2.2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 2px solid #e3e3e3; }
        h3 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
        nav { margin: 1rem 0; padding: .5rem .8rem; background: #f4f6f8; border-radius: 4px; }
        nav a { margin-right: 1.2rem; color: #0b5cad; }
        blockquote { margin: .8rem 0; padding: .5rem .9rem; background: #fff4e5; border-left: 4px solid #e69f00; }
        ul { padding-left: 1.3rem; }
        .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 600px), 1fr)); gap: 1rem; }
        figure { margin: 0; padding: .4rem; border: 1px solid #e3e3e3; border-radius: 4px; background: #fff; }
        figure svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
        .table { overflow-x: auto; margin: .6rem 0 1rem; }
        table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
        th, td { border: 1px solid #dcdcdc; padding: .2rem .45rem; text-align: left; vertical-align: top; }
        th { background: #f4f6f8; }
        tbody tr:nth-child(even) { background: #fafafa; }
        .right { text-align: right; }
        td.right { white-space: nowrap; }
        .center { text-align: center; }
        .muted, footer { color: #555; }
        footer { margin-top: 2.5rem; font-size: 13px; }
        @media print { body { padding: 0; } figure { break-inside: avoid; } }
        """;

    /// <inheritdoc />
    public override string Format => "html";

    /// <inheritdoc />
    public override string FileExtension => "html";

    /// <inheritdoc />
    public override IReadOnlyList<CompanionFile> CompanionFiles(BenchmarkResult result) =>
        [.. ReportCharts.For(result).Select(chart => new CompanionFile(chart.Name, "svg", writer => writer.Write(chart.Svg)))];

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        // The report opens with the environment, the plan and the clients (the page's header); its sections are the tables.
        var report = ResultTables.Document(result);
        var charts = ReportCharts.For(result);

        var started = result.StartedAtUtc.ToString("u", CultureInfo.InvariantCulture);
        writer.Write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        writer.Write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        writer.Write($"<title>KafkaPerf results · {Escape(string.Join(" vs ", result.Plan.Clients))} · {started}</title>\n");
        writer.Write($"<style>\n{Style}\n</style>\n</head>\n<body>\n<header>\n");
        writer.Write($"<h1>{Text(report.Title)}</h1>\n");
        WriteBlocks(writer, report.Preamble);
        writer.Write("</header>\n");
        // Only the sections this result has charts for: a burst plan shows throughput and its ratios, a rate plan its time
        // series and rate search; both show latency. A plan stopped before its first run has no chart, and says so.
        bool bursts = charts.Any(c => c.Kind == ChartKind.Throughput);
        bool ran = ChartRuns.Measured(result).Any();
        bool search = RateProbeCharts.IsSearch(result);
        bool latency = ran && !search;
        var sections = new List<(string Id, string Title)>();
        if (bursts) sections.Add(("throughput", "Throughput"));
        if (bursts) sections.Add(("ratios", "Ratios"));
        if (charts.Any(c => c.Kind == ChartKind.RateCurve)) sections.Add(("rate-search", "Rate search"));
        if (charts.Any(c => c.Kind == ChartKind.TimeSeries)) sections.Add(("over-time", "Over time"));
        if (charts.Any(c => c.Kind == ChartKind.Breakdown)) sections.Add(("breakdown", "Where the time went"));
        if (latency) sections.Add(("latency", "Latency"));
        sections.Add(("tables", "Tables"));
        writer.Write("<nav>" + string.Concat(sections.Select(x => $"<a href=\"#{x.Id}\">{x.Title}</a>")) + "</nav>\n");
        if (!ran)
        {
            string why = result.AbortReason is not null ? "the plan stopped before any run finished"
                : result.Cancelled ? "the plan was cancelled before any run finished"
                : "no run finished";
            writer.Write($"<p class=\"muted\" id=\"no-charts\">No charts: {why}, so nothing was measured to draw.</p>\n");
        }

        if (bursts)
        {
            writer.Write("<section id=\"throughput\">\n<h2>Throughput</h2>\n");
            WriteCharts(writer, charts.Where(c => c.Kind == ChartKind.Throughput));
            writer.Write("</section>\n<section id=\"ratios\">\n<h2>Throughput ratios</h2>\n");
            if (charts.Any(c => c.Kind == ChartKind.Ratio)) WriteCharts(writer, charts.Where(c => c.Kind == ChartKind.Ratio));
            else writer.Write("<p class=\"muted\">No ratios: the plan has a single client, so there is nothing to compare it with.</p>\n");
            writer.Write("</section>\n");
        }
        if (charts.Any(c => c.Kind == ChartKind.RateCurve))
        {
            writer.Write("<section id=\"rate-search\">\n<h2>Rate search: latency against offered rate</h2>\n");
            WriteCharts(writer, charts.Where(c => c.Kind == ChartKind.RateCurve));
            writer.Write("</section>\n");
        }
        if (charts.Any(c => c.Kind == ChartKind.TimeSeries))
        {
            writer.Write("<section id=\"over-time\">\n<h2>Over time: rate and latency per interval</h2>\n");
            WriteCharts(writer, charts.Where(c => c.Kind == ChartKind.TimeSeries));
            writer.Write("</section>\n");
        }
        if (charts.Any(c => c.Kind == ChartKind.Breakdown))
        {
            writer.Write("<section id=\"breakdown\">\n<h2>Where the time went</h2>\n");
            WriteCharts(writer, charts.Where(c => c.Kind == ChartKind.Breakdown));
            writer.Write("</section>\n");
        }

        if (latency)
        {
            writer.Write("<section id=\"latency\">\n<h2>Latency</h2>\n");
            if (charts.Any(c => c.Kind == ChartKind.Latency)) WriteCharts(writer, charts.Where(c => c.Kind == ChartKind.Latency));
            else writer.Write("<p class=\"muted\">No latency was measured: latency comes from produce (send → ack) and roundtrip (produce → consume) runs of clients that report it.</p>\n");
            writer.Write("</section>\n");
        }

        writer.Write("<section id=\"tables\">\n<h2>Tables</h2>\n");
        // One level below the page's own sections.
        foreach (var section in report.Sections)
        {
            writer.Write($"<h3>{Text(section.Title)}</h3>\n");
            WriteBlocks(writer, section.Blocks);
        }
        writer.Write("</section>\n");
        writer.Write($"<footer>Written by KafkaPerf {Escape(result.Environment.ToolVersion)}. The same tables are in the .md file of this run and every number in its .json file; each chart is also saved beside this page as an .svg file.</footer>\n");
        writer.Write("</body>\n</html>\n");
    }

    /// <summary>Writes report blocks as HTML: a note as a block quote with its label in bold, a list, a paragraph, a table
    /// whose right-aligned columns have the class <c>right</c>.</summary>
    internal static void WriteBlocks(TextWriter writer, IEnumerable<ReportBlock> blocks)
    {
        foreach (var block in blocks)
        {
            switch (block)
            {
                case ReportNote note:
                    writer.Write($"<blockquote><strong>{Text(note.Label)}</strong>: {Text(note.Text)}</blockquote>\n");
                    break;
                case ReportList list:
                    writer.Write("<ul>\n");
                    foreach (var item in list.Items) writer.Write($"<li>{Text(item)}</li>\n");
                    writer.Write("</ul>\n");
                    break;
                case ReportParagraph paragraph:
                    writer.Write($"<p>{Text(paragraph.Text)}</p>\n");
                    break;
                case ReportTable table:
                    WriteTable(writer, table);
                    break;
                default:
                    throw new ArgumentException($"A block of an unknown kind: {block.GetType().Name}.", nameof(blocks));
            }
        }
    }

    private static void WriteTable(TextWriter writer, ReportTable table)
    {
        var classes = table.Columns.Select(c => c.Alignment == ColumnAlignment.Right ? " class=\"right\"" : string.Empty).ToList();
        writer.Write("<div class=\"table\"><table>\n<thead><tr>");
        for (int c = 0; c < table.Columns.Count; c++) writer.Write($"<th{classes[c]}>{Text(table.Columns[c].Header)}</th>");
        writer.Write("</tr></thead>\n<tbody>\n");
        foreach (var row in table.Rows)
        {
            writer.Write("<tr>");
            for (int c = 0; c < row.Count; c++) writer.Write($"<td{classes[c]}>{Text(row[c])}</td>");
            writer.Write("</tr>\n");
        }
        writer.Write("</tbody></table></div>\n");
    }

    /// <summary>A report's text as HTML content: escaped, and on one line as every renderer shows it.</summary>
    private static string Text(string text) => Escape(text.ReplaceLineEndings(" "));

    /// <summary>Escapes text for HTML content or a quoted attribute; other characters stay as they are (the page is UTF-8).</summary>
    private static string Escape(string text) => text
        .Replace("&", "&amp;", StringComparison.Ordinal)
        .Replace("<", "&lt;", StringComparison.Ordinal)
        .Replace(">", "&gt;", StringComparison.Ordinal)
        .Replace("\"", "&quot;", StringComparison.Ordinal);

    private static void WriteCharts(TextWriter writer, IEnumerable<ReportChart> charts)
    {
        writer.Write("<div class=\"charts\">\n");
        foreach (var chart in charts)
        {
            writer.Write($"<figure id=\"chart-{chart.Name}\">\n");
            writer.Write(chart.InlineSvg);
            writer.Write("</figure>\n");
        }
        writer.Write("</div>\n");
    }
}
