namespace KafkaPerf.Reporting.Charts;

/// <summary>One chart of a report, as a standalone SVG document.</summary>
/// <param name="Name">A short, file-name-safe name, unique within the report (<c>throughput-produce</c>); exporters
/// write the chart to <c>{baseName}-{Name}.svg</c>.</param>
/// <param name="Kind">What it shows.</param>
/// <param name="Title">Its title, as drawn in it.</param>
/// <param name="Svg">The SVG document.</param>
public sealed record ReportChart(string Name, ChartKind Kind, string Title, string Svg)
{
    /// <summary>The SVG without its namespace declaration, for inlining in an HTML page (whose parser supplies the
    /// namespace), so that the page holds no URL at all.</summary>
    public string InlineSvg => Svg.Replace($" xmlns=\"{SvgBuilder.Namespace}\"", string.Empty, StringComparison.Ordinal);
}
