namespace KafkaPerf.Reporting.Charts;

/// <summary>The frame every line chart shares: title, subtitle, axes with non-overlapping ticks and units, grid,
/// series with optional whiskers, a legend with one entry per client and a "no data" message when nothing can be drawn.</summary>
internal sealed class XYChart
{
    public const double Width = 760;
    public const double Height = 470;

    public required string Title { get; init; }

    public string? Subtitle { get; init; }

    public required string XLabel { get; init; }

    public required string YLabel { get; init; }

    public required Axis X { get; init; }

    public required Axis Y { get; init; }

    public required IReadOnlyList<Series> Lines { get; init; }

    /// <summary>A line under the chart that says how to read it.</summary>
    public string? Note { get; init; }

    /// <summary>Shown instead of the plot when no series has a point.</summary>
    public string NoDataText { get; init; } = "no data";

    /// <summary>Horizontal offset between the whiskers of different series at one x, so they do not hide each other.</summary>
    public double Dodge { get; init; }

    /// <summary>Spans of the x axis to mark (a fault's window): shaded, a line at their start, labelled.</summary>
    public IReadOnlyList<Band> Bands { get; init; } = [];

    /// <summary>A marked span of the x axis.</summary>
    /// <param name="From">Its start (a line is drawn there).</param>
    /// <param name="To">Its end; equal to <paramref name="From"/> for a line alone.</param>
    /// <param name="Label">What it is.</param>
    internal sealed record Band(double From, double To, string Label);

    public string Render()
    {
        var svg = new SvgBuilder(Width, Height, Title);
        double top = 12 + ChartTheme.TitleSize;
        svg.Text(16, top, Title, ChartTheme.TitleSize, bold: true, cssClass: "chart-title");
        if (Subtitle is not null)
        {
            top += 3;
            foreach (var line in ChartTheme.Wrap(Subtitle, ChartTheme.SubtitleSize, Width - 32))
            {
                top += ChartTheme.SubtitleSize + 5;
                svg.Text(16, top, line, ChartTheme.SubtitleSize, fill: ChartTheme.MutedText, cssClass: "chart-subtitle");
            }
        }
        var noteLines = Note is null ? [] : ChartTheme.Wrap(Note, ChartTheme.NoteSize, Width - 32);
        // The legend runs across the top, under the subtitle, so that the plot keeps the whole width.
        var legend = LayoutLegend(16, Width - 16, top + 12);
        double plotTop = (legend.Count == 0 ? top : legend[^1].Y) + 24;
        double plotBottom = Height - 62 - (noteLines.Count * (ChartTheme.NoteSize + 5)) - (noteLines.Count > 0 ? 2 : 0);
        Y.SetPixels(plotBottom, plotTop);
        var yTicks = Y.Ticks(horizontal: false, ChartTheme.TickSize);
        double yTickWidth = yTicks.Count == 0 ? 0 : yTicks.Max(t => ChartTheme.TextWidth(t.Label, ChartTheme.TickSize));
        double plotLeft = 16 + ChartTheme.AxisLabelSize + 12 + yTickWidth + 8;
        // Room for half of the widest label of the last x tick.
        double plotRight = Width - 16 - 30;
        X.SetPixels(plotLeft, plotRight);

        bool hasData = Lines.Any(s => s.Points.Any(p => IsFinite(p.X) && IsFinite(p.Y)));
        svg.Rect(plotLeft, plotTop, plotRight - plotLeft, plotBottom - plotTop, fill: "#fcfcfc", stroke: ChartTheme.Grid);
        if (hasData)
        {
            svg.BeginGroup("y-ticks");
            foreach (var (value, label) in yTicks)
            {
                double y = Y.Map(value);
                svg.Line(plotLeft, y, plotRight, y, ChartTheme.Grid);
                svg.Line(plotLeft - 4, y, plotLeft, y, ChartTheme.Axis);
                svg.Text(plotLeft - 7, y + (ChartTheme.TickSize * 0.35), label, ChartTheme.TickSize, anchor: "end", cssClass: "tick");
            }
            svg.EndGroup();
            svg.BeginGroup("x-ticks");
            foreach (var (value, label) in X.Ticks(horizontal: true, ChartTheme.TickSize))
            {
                double x = X.Map(value);
                svg.Line(x, plotTop, x, plotBottom, ChartTheme.Grid);
                svg.Line(x, plotBottom, x, plotBottom + 4, ChartTheme.Axis);
                svg.Text(x, plotBottom + 6 + ChartTheme.TickSize, label, ChartTheme.TickSize, anchor: "middle", cssClass: "tick");
            }
            svg.EndGroup();
            DrawBands(svg, plotTop, plotBottom);
            DrawSeries(svg);
        }
        else
        {
            svg.Text((plotLeft + plotRight) / 2, (plotTop + plotBottom) / 2, NoDataText, ChartTheme.AxisLabelSize + 2, anchor: "middle", fill: ChartTheme.MutedText, cssClass: "no-data");
        }
        svg.Line(plotLeft, plotBottom, plotRight, plotBottom, ChartTheme.Axis);
        svg.Line(plotLeft, plotTop, plotLeft, plotBottom, ChartTheme.Axis);

        svg.Text((plotLeft + plotRight) / 2, plotBottom + 6 + ChartTheme.TickSize + 8 + ChartTheme.AxisLabelSize, XLabel, ChartTheme.AxisLabelSize, anchor: "middle", cssClass: "axis-label x-label");
        double yLabelX = 16 + ChartTheme.AxisLabelSize;
        svg.Text(yLabelX, (plotTop + plotBottom) / 2, YLabel, ChartTheme.AxisLabelSize, anchor: "middle", rotate: -90, cssClass: "axis-label y-label");
        for (int i = 0; i < noteLines.Count; i++)
            svg.Text(16, Height - 12 - ((noteLines.Count - 1 - i) * (ChartTheme.NoteSize + 5)), noteLines[i], ChartTheme.NoteSize, fill: ChartTheme.MutedText, cssClass: "chart-note");

        DrawLegend(svg, legend);
        return svg.ToString();
    }

    private void DrawBands(SvgBuilder svg, double plotTop, double plotBottom)
    {
        if (Bands.Count == 0) return;
        svg.BeginGroup("bands");
        for (int i = 0; i < Bands.Count; i++)
        {
            var band = Bands[i];
            if (!IsFinite(band.From)) continue;
            double from = X.Map(band.From), to = IsFinite(band.To) ? X.Map(Math.Max(band.To, band.From)) : from;
            if (to > from) svg.Rect(from, plotTop, to - from, plotBottom - plotTop, fill: "#f6dddd", cssClass: "fault-window");
            svg.Line(from, plotTop, from, plotBottom, "#b03a2e", 1.4, "5 3");
            svg.Text(from + 4, plotTop + 12 + (i * (ChartTheme.NoteSize + 4)), band.Label, ChartTheme.NoteSize, fill: "#b03a2e", cssClass: "fault-label");
        }
        svg.EndGroup();
    }

    private void DrawSeries(SvgBuilder svg)
    {
        for (int i = 0; i < Lines.Count; i++)
        {
            var series = Lines[i];
            var colour = ChartTheme.ColourOf(series.Index);
            double offset = (i - ((Lines.Count - 1) / 2.0)) * Dodge;
            var points = series.Points.Where(p => IsFinite(p.X) && IsFinite(p.Y)).OrderBy(p => p.X).ToList();
            if (points.Count == 0) continue;
            svg.BeginGroup("series");
            if (series.Whiskers)
            {
                foreach (var p in points.Where(p => IsFinite(p.Low) && IsFinite(p.High) && p.High > p.Low))
                {
                    double x = X.Map(p.X) + offset, low = Y.Map(p.Low), high = Y.Map(p.High);
                    svg.Line(x, low, x, high, colour, 1.6);
                    svg.Line(x - 4, low, x + 4, low, colour, 1.6);
                    svg.Line(x - 4, high, x + 4, high, colour, 1.6);
                }
            }
            var mapped = points.Select(p => (X.Map(p.X) + (series.Markers ? offset : 0), Y.Map(p.Y))).ToList();
            if (series.Line) svg.Polyline(mapped, colour, series.Markers ? 2 : 2.2, DashOf(series));
            if (series.Markers)
            {
                foreach (var (x, y) in mapped) svg.Marker(x, y, series.Index, colour, series.MarkerSize);
            }
            svg.EndGroup();
        }
    }

    /// <summary>Places the legend entries left to right, wrapping onto further rows when a row is full.</summary>
    private List<(Series Series, double X, double Y)> LayoutLegend(double left, double right, double top)
    {
        var placed = new List<(Series, double, double)>();
        double x = left, y = top + (ChartTheme.LegendSize / 2);
        foreach (var series in Lines)
        {
            double width = 26 + 6 + ChartTheme.TextWidth(LegendText(series), ChartTheme.LegendSize);
            if (x > left && x + width > right)
            {
                x = left;
                y += ChartTheme.LegendSize + 8;
            }
            placed.Add((series, x, y));
            x += width + 22;
        }
        return placed;
    }

    private static void DrawLegend(SvgBuilder svg, List<(Series Series, double X, double Y)> legend)
    {
        svg.BeginGroup("legend");
        foreach (var (series, left, y) in legend)
        {
            bool empty = !series.Points.Any(p => IsFinite(p.X) && IsFinite(p.Y));
            var colour = empty ? ChartTheme.MissingFill : ChartTheme.ColourOf(series.Index);
            if (series.Markers)
            {
                // Dashed as its line is: a client's p50 beside its p99 differs from it only by the dash.
                svg.Line(left, y, left + 26, y, colour, 2, empty ? null : DashOf(series));
                svg.Marker(left + 13, y, series.Index, colour);
            }
            else
            {
                svg.Line(left, y, left + 26, y, colour, 2.5, empty ? null : DashOf(series));
            }
            svg.Text(left + 32, y + (ChartTheme.LegendSize * 0.35), LegendText(series), ChartTheme.LegendSize, fill: empty ? ChartTheme.MutedText : ChartTheme.Text, cssClass: "legend-entry");
        }
        svg.EndGroup();
    }

    private static string LegendText(Series series) => series.Points.Any(p => IsFinite(p.X) && IsFinite(p.Y))
        ? series.Name
        : $"{series.Name} ({series.EmptyText})";

    private static bool IsFinite(double value) => double.IsFinite(value);

    private static string? DashOf(Series series) => series.Dash ?? (series.Markers ? null : ChartTheme.DashOf(series.Index));

    /// <summary>One client's line.</summary>
    /// <param name="Name">The legend text.</param>
    /// <param name="Index">The client's place in the plan: its colour, marker and dash in every chart.</param>
    /// <param name="Points">The points; NaN ones are left out.</param>
    /// <param name="Markers">Whether points get markers (few points) or not (a dense curve).</param>
    /// <param name="Whiskers">Whether points carry a low–high range.</param>
    /// <param name="EmptyText">What the legend says when the series has no point.</param>
    /// <param name="Dash">A dash pattern instead of the client's own (two lines of one client in one chart).</param>
    /// <param name="Line">Whether the points are joined by a line (marks alone otherwise).</param>
    /// <param name="MarkerSize">The markers' size.</param>
    public sealed record Series(string Name, int Index, IReadOnlyList<Point> Points, bool Markers, bool Whiskers, string EmptyText = "no data", string? Dash = null, bool Line = true, double MarkerSize = 4.5);

    /// <summary>A point, with the ends of its whisker when it has one.</summary>
    public readonly record struct Point(double X, double Y, double Low = double.NaN, double High = double.NaN);
}
