using System.Globalization;
using System.Text;

namespace KafkaPerf.Reporting.Charts;

/// <summary>Writes SVG elements as text: numbers in the invariant culture with two decimals at most, and every
/// piece of text escaped, so that a client name or a variant label cannot break the markup.</summary>
internal sealed class SvgBuilder
{
    /// <summary>The namespace a standalone .svg file must declare; an SVG inlined in HTML needs none.</summary>
    public const string Namespace = "http://www.w3.org/2000/svg";

    private readonly StringBuilder _text = new();

    public SvgBuilder(double width, double height, string title)
    {
        _text.Append(CultureInfo.InvariantCulture,
            $"<svg xmlns=\"{Namespace}\" width=\"{N(width)}\" height=\"{N(height)}\" viewBox=\"0 0 {N(width)} {N(height)}\" role=\"img\" aria-label=\"{Escape(title)}\" font-family=\"{ChartTheme.FontFamily}\">\n");
        _text.Append("<title>").Append(Escape(title)).Append("</title>\n");
        Rect(0, 0, width, height, fill: "#ffffff");
    }

    /// <param name="x">Left edge.</param>
    /// <param name="y">Top edge.</param>
    /// <param name="width">Width (a negative one is drawn as none).</param>
    /// <param name="height">Height.</param>
    /// <param name="fill">Fill colour.</param>
    /// <param name="stroke">Outline colour, or none.</param>
    /// <param name="cssClass">A class, for readers of the SVG (tests, stylesheets).</param>
    /// <param name="data">Attributes for readers of the SVG (<c>data-…</c>), written escaped.</param>
    /// <param name="tooltip">A <c>title</c> child: what a browser shows when the pointer rests on the shape.</param>
    public void Rect(double x, double y, double width, double height, string fill, string? stroke = null, string? cssClass = null,
        IReadOnlyList<(string Name, string Value)>? data = null, string? tooltip = null)
    {
        _text.Append(CultureInfo.InvariantCulture,
            $"<rect x=\"{N(x)}\" y=\"{N(y)}\" width=\"{N(Math.Max(0, width))}\" height=\"{N(Math.Max(0, height))}\" fill=\"{fill}\"{Attr("stroke", stroke)}{Attr("class", cssClass)}{Data(data)}");
        Close("rect", tooltip);
    }

    public void Line(double x1, double y1, double x2, double y2, string stroke, double width = 1, string? dash = null, string? cssClass = null,
        IReadOnlyList<(string Name, string Value)>? data = null) =>
        _text.Append(CultureInfo.InvariantCulture,
            $"<line x1=\"{N(x1)}\" y1=\"{N(y1)}\" x2=\"{N(x2)}\" y2=\"{N(y2)}\" stroke=\"{stroke}\" stroke-width=\"{N(width)}\"{Attr("stroke-dasharray", dash)}{Attr("class", cssClass)}{Data(data)}/>\n");

    public void Polyline(IReadOnlyList<(double X, double Y)> points, string stroke, double width, string? dash = null, string? cssClass = null,
        IReadOnlyList<(string Name, string Value)>? data = null)
    {
        if (points.Count == 0) return;
        _text.Append("<polyline points=\"");
        for (int i = 0; i < points.Count; i++)
        {
            if (i > 0) _text.Append(' ');
            _text.Append(N(points[i].X)).Append(',').Append(N(points[i].Y));
        }
        _text.Append(CultureInfo.InvariantCulture,
            $"\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{N(width)}\" stroke-linejoin=\"round\"{Attr("stroke-dasharray", dash)}{Attr("class", cssClass)}{Data(data)}/>\n");
    }

    /// <summary>A plain dot: a line's lone point between two gaps, which a polyline of one point would not show.</summary>
    public void Dot(double x, double y, double radius, string fill, string? cssClass = null, IReadOnlyList<(string Name, string Value)>? data = null) =>
        _text.Append(CultureInfo.InvariantCulture,
            $"<circle cx=\"{N(x)}\" cy=\"{N(y)}\" r=\"{N(radius)}\" fill=\"{fill}\"{Attr("class", cssClass)}{Data(data)}/>\n");

    /// <summary>A data marker of one of several shapes, so series stay apart without colour.</summary>
    public void Marker(double x, double y, int shape, string fill, double size = 4.5)
    {
        switch (shape % 4)
        {
            case 0:
                _text.Append(CultureInfo.InvariantCulture, $"<circle cx=\"{N(x)}\" cy=\"{N(y)}\" r=\"{N(size)}\" fill=\"{fill}\" stroke=\"#ffffff\" stroke-width=\"1\"/>\n");
                break;
            case 1:
                Rect(x - size, y - size, 2 * size, 2 * size, fill, stroke: "#ffffff");
                break;
            case 2:
                Polygon([(x, y - (size * 1.25)), (x + (size * 1.15), y + (size * 0.85)), (x - (size * 1.15), y + (size * 0.85))], fill);
                break;
            default:
                Polygon([(x, y - (size * 1.3)), (x + (size * 1.3), y), (x, y + (size * 1.3)), (x - (size * 1.3), y)], fill);
                break;
        }
    }

    /// <summary>A text element.</summary>
    /// <param name="x">Where it is anchored, horizontally.</param>
    /// <param name="y">Its baseline.</param>
    /// <param name="text">What it says (escaped here).</param>
    /// <param name="size">Its font size.</param>
    /// <param name="anchor">Its <c>text-anchor</c>: start, middle or end.</param>
    /// <param name="fill">Its colour.</param>
    /// <param name="bold">Whether it is bold.</param>
    /// <param name="rotate">Degrees it is turned about its anchor.</param>
    /// <param name="cssClass">A class for the report's style sheet and scripts, or none.</param>
    /// <param name="data">Its <c>data-</c> attributes, or none.</param>
    /// <param name="halo">A background colour drawn around the letters, so that text over lines stays legible.</param>
    public void Text(double x, double y, string text, double size, string anchor = "start", string fill = "#222222", bool bold = false, double rotate = 0, string? cssClass = null,
        IReadOnlyList<(string Name, string Value)>? data = null, string? halo = null)
    {
        var transform = rotate == 0 ? string.Empty : string.Create(CultureInfo.InvariantCulture, $" transform=\"rotate({N(rotate)} {N(x)} {N(y)})\"");
        var outline = halo is null ? string.Empty : $" stroke=\"{halo}\" stroke-width=\"3\" paint-order=\"stroke\"";
        _text.Append(CultureInfo.InvariantCulture,
            $"<text x=\"{N(x)}\" y=\"{N(y)}\" font-size=\"{N(size)}\" text-anchor=\"{anchor}\" fill=\"{fill}\"{(bold ? " font-weight=\"bold\"" : string.Empty)}{outline}{transform}{Attr("class", cssClass)}{Data(data)}>{Escape(text)}</text>\n");
    }

    public void BeginGroup(string cssClass, IReadOnlyList<(string Name, string Value)>? data = null) =>
        _text.Append(CultureInfo.InvariantCulture, $"<g class=\"{Escape(cssClass)}\"{Data(data)}>\n");

    public void EndGroup() => _text.Append("</g>\n");

    public override string ToString() => _text + "</svg>\n";

    /// <summary>Escapes text for an XML element or attribute.</summary>
    public static string Escape(string text) => text
        .Replace("&", "&amp;", StringComparison.Ordinal)
        .Replace("<", "&lt;", StringComparison.Ordinal)
        .Replace(">", "&gt;", StringComparison.Ordinal)
        .Replace("\"", "&quot;", StringComparison.Ordinal);

    private void Polygon(IReadOnlyList<(double X, double Y)> points, string fill)
    {
        _text.Append("<polygon points=\"");
        for (int i = 0; i < points.Count; i++)
        {
            if (i > 0) _text.Append(' ');
            _text.Append(N(points[i].X)).Append(',').Append(N(points[i].Y));
        }
        _text.Append(CultureInfo.InvariantCulture, $"\" fill=\"{fill}\" stroke=\"#ffffff\" stroke-width=\"1\"/>\n");
    }

    /// <summary>A number as an attribute value for readers of the SVG: invariant, with the precision the data has.</summary>
    public static string Value(double value) => value.ToString("0.######", CultureInfo.InvariantCulture);

    private void Close(string element, string? tooltip)
    {
        if (tooltip is null)
        {
            _text.Append("/>\n");
            return;
        }
        _text.Append("><title>").Append(Escape(tooltip)).Append("</title></").Append(element).Append(">\n");
    }

    private static string Data(IReadOnlyList<(string Name, string Value)>? data)
    {
        if (data is null || data.Count == 0) return string.Empty;
        var text = new StringBuilder();
        foreach (var (name, value) in data) text.Append(' ').Append(name).Append("=\"").Append(Escape(value)).Append('"');
        return text.ToString();
    }

    private static string Attr(string name, string? value) => string.IsNullOrEmpty(value) ? string.Empty : $" {name}=\"{Escape(value)}\"";

    private static string N(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
