namespace KafkaPerf.Reporting.Charts;

/// <summary>The frame every line chart shares: title, subtitle, axes with non-overlapping ticks and units, grid,
/// series with optional whiskers, a legend with one entry per client and a "no data" message when nothing can be drawn.
/// A series' line breaks at every point without a figure (NaN), so that no segment crosses what was not measured; a
/// time series may carry lanes above the plot (each client's fault windows and outages) and upright marks on its axis.</summary>
internal sealed partial class XYChart
{
    public const double Width = 760;

    /// <summary>The height of a chart without lanes or legend keys; each adds its own rows.</summary>
    public const double BaseHeight = 470;

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

    /// <summary>Rows above the plot, one per client (or probe): its fault windows and the intervals in which it
    /// acknowledged nothing, on the chart's x axis.</summary>
    public IReadOnlyList<Lane> Lanes { get; init; } = [];

    /// <summary>Upright lines across the plot (a fault, an election, the warm-up's end).</summary>
    public IReadOnlyList<Mark> Marks { get; init; } = [];

    /// <summary>A span of the x axis shaded grey behind the lines (the warm-up), or none.</summary>
    public (double From, double To)? Shade { get; init; }

    /// <summary>Legend entries that are not lines: what a lane's band and marks mean.</summary>
    public IReadOnlyList<Key> Keys { get; init; } = [];

    public string Render()
    {
        var noteLines = Note is null ? [] : ChartTheme.Wrap(Note, ChartTheme.NoteSize, Width - 32);
        // The plot's left edge depends on the y ticks' width, which depends on the plot's height: the lanes' labels wrap on
        // a fixed width (LaneLabelWidth), so that their height is known before the plot is placed.
        var (legend, legendBottom) = LayoutLegend(16, Width - 16, HeaderBottom() + 12);
        double lanesHeight = Lanes.Sum(LaneHeight);
        double height = BaseHeight + lanesHeight + Math.Max(0, legendBottom - (HeaderBottom() + 12) - (2 * LegendRow));
        var svg = new SvgBuilder(Width, height, Title);
        double top = DrawHeader(svg);
        double legendEnd = legend.Count == 0 ? top : legend[^1].Y;
        double lanesTop = legendEnd + 18;
        double plotTop = Lanes.Count > 0 ? lanesTop + lanesHeight + 8 : legendEnd + 24;
        double plotBottom = height - 62 - (noteLines.Count * (ChartTheme.NoteSize + 5)) - (noteLines.Count > 0 ? 2 : 0);
        Y.SetPixels(plotBottom, plotTop);
        var yTicks = Y.Ticks(horizontal: false, ChartTheme.TickSize);
        double yTickWidth = yTicks.Count == 0 ? 0 : yTicks.Max(t => ChartTheme.TextWidth(t.Label, ChartTheme.TickSize));
        double plotLeft = 16 + ChartTheme.AxisLabelSize + 12 + yTickWidth + 8;
        // Room for half of the widest label of the last x tick, or for the lines' end labels.
        double plotRight = Width - 16 - Math.Max(30, EndLabelWidth());
        X.SetPixels(plotLeft, plotRight);

        bool hasData = Lines.Any(s => s.Points.Any(p => IsFinite(p.X) && IsFinite(p.Y)));
        svg.Rect(plotLeft, plotTop, plotRight - plotLeft, plotBottom - plotTop, fill: "#fcfcfc", stroke: ChartTheme.Grid, cssClass: "plot",
            data: [("data-x-min", SvgBuilder.Value(X.Min)), ("data-x-max", SvgBuilder.Value(X.Max)), ("data-x-log", X.IsLog ? "true" : "false")]);
        var lanes = DrawLanes(svg, lanesTop, plotLeft, plotRight);
        if (hasData)
        {
            if (Shade is { } shade) DrawShade(svg, shade, plotTop, plotBottom);
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
            DrawMarks(svg, lanes, plotTop, plotBottom);
            DrawSeries(svg);
            DrawMarkLabels(svg, plotBottom);
            DrawEndLabels(svg, plotRight, plotTop, plotBottom);
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
            svg.Text(16, height - 12 - ((noteLines.Count - 1 - i) * (ChartTheme.NoteSize + 5)), noteLines[i], ChartTheme.NoteSize, fill: ChartTheme.MutedText, cssClass: "chart-note");

        DrawLegend(svg, legend);
        return svg.ToString();
    }

    private const double LegendRow = ChartTheme.LegendSize + 8;

    /// <summary>Where the title and subtitle end.</summary>
    private double HeaderBottom()
    {
        double top = 12 + ChartTheme.TitleSize;
        if (Subtitle is null) return top;
        return top + 3 + (ChartTheme.Wrap(Subtitle, ChartTheme.SubtitleSize, Width - 32).Count * (ChartTheme.SubtitleSize + 5));
    }

    private double DrawHeader(SvgBuilder svg)
    {
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
        return top;
    }

    private void DrawShade(SvgBuilder svg, (double From, double To) shade, double plotTop, double plotBottom)
    {
        double from = X.Map(shade.From), to = X.Map(shade.To);
        if (to > from) svg.Rect(from, plotTop, to - from, plotBottom - plotTop, fill: "#efefef", cssClass: "warmup");
    }

    private void DrawMarks(SvgBuilder svg, Dictionary<int, double> laneTops, double plotTop, double plotBottom)
    {
        if (Marks.Count == 0) return;
        svg.BeginGroup("marks");
        foreach (var mark in Marks)
        {
            if (!IsFinite(mark.X) || mark.X < X.Min || mark.X > X.Max) continue;
            double x = X.Map(mark.X);
            double top = mark.Lane is { } lane && laneTops.TryGetValue(lane, out var laneTop) ? laneTop : plotTop;
            svg.Line(x, top, x, plotBottom, mark.Colour, 1.3, mark.Dash, cssClass: mark.CssClass, data: [("data-x", SvgBuilder.Value(mark.X))]);
        }
        svg.EndGroup();
    }

    /// <summary>The marks' labels, upwards along them from the plot's bottom: over the lines, with a halo, to stay legible.</summary>
    private void DrawMarkLabels(SvgBuilder svg, double plotBottom)
    {
        foreach (var mark in Marks.Where(m => m.Label is not null && IsFinite(m.X) && m.X >= X.Min && m.X <= X.Max))
            svg.Text(X.Map(mark.X) - 4, plotBottom - 6, mark.Label!, ChartTheme.NoteSize, fill: mark.Colour, rotate: -90, cssClass: mark.CssClass + "-label", halo: "#fcfcfc");
    }

    private void DrawSeries(SvgBuilder svg)
    {
        for (int i = 0; i < Lines.Count; i++)
        {
            var series = Lines[i];
            var colour = ChartTheme.ColourOf(series.Index);
            double offset = (i - ((Lines.Count - 1) / 2.0)) * Dodge;
            var points = series.Points.Where(p => IsFinite(p.X)).OrderBy(p => p.X).ToList();
            if (!points.Any(p => IsFinite(p.Y))) continue;
            svg.BeginGroup("series", [("data-series", series.Name)]);
            if (series.Whiskers)
            {
                foreach (var p in points.Where(p => IsFinite(p.Y) && IsFinite(p.Low) && IsFinite(p.High) && p.High > p.Low))
                {
                    double x = X.Map(p.X) + offset, low = Y.Map(p.Low), high = Y.Map(p.High);
                    svg.Line(x, low, x, high, colour, 1.6);
                    svg.Line(x - 4, low, x + 4, low, colour, 1.6);
                    svg.Line(x - 4, high, x + 4, high, colour, 1.6);
                }
            }
            double width = series.Markers ? 2 : 2.2;
            foreach (var segment in Segments(points))
            {
                var mapped = segment.Select(p => (X.Map(p.X) + (series.Markers ? offset : 0), Y.Map(p.Y))).ToList();
                if (series.Line && mapped.Count > 1) svg.Polyline(mapped, colour, width, DashOf(series), cssClass: "series-line");
                // A lone figure between two gaps: a polyline of one point draws nothing.
                else if (series.Line && !series.Markers) svg.Dot(mapped[0].Item1, mapped[0].Item2, width * 1.3, colour, cssClass: "series-point");
                if (series.Markers)
                {
                    foreach (var (x, y) in mapped) svg.Marker(x, y, series.Index, colour, series.MarkerSize);
                }
            }
            svg.EndGroup();
        }
    }

    /// <summary>The runs of consecutive points with a figure: a point without one (NaN) ends a run, so that the line breaks
    /// there instead of joining its neighbours across it.</summary>
    internal static List<List<Point>> Segments(IReadOnlyList<Point> ordered)
    {
        var segments = new List<List<Point>>();
        List<Point>? current = null;
        foreach (var point in ordered)
        {
            if (!IsFinite(point.Y))
            {
                current = null;
                continue;
            }
            if (current is null)
            {
                current = [];
                segments.Add(current);
            }
            current.Add(point);
        }
        return segments;
    }

    private double EndLabelWidth()
    {
        var labels = Lines.Where(l => l.EndLabel is not null && l.Points.Any(p => IsFinite(p.X) && IsFinite(p.Y))).Select(l => l.EndLabel!).ToList();
        return labels.Count == 0 ? 0 : 16 + labels.Max(l => ChartTheme.TextWidth(l, ChartTheme.NoteSize));
    }

    /// <summary>Each labelled line's label in the right margin, beside its last point, moved apart so none overlaps another,
    /// with a thin leader from the point to the label.</summary>
    private void DrawEndLabels(SvgBuilder svg, double plotRight, double plotTop, double plotBottom)
    {
        var labelled = Lines.Select(l => (Series: l, Last: l.Points.Where(p => IsFinite(p.X) && IsFinite(p.Y)).OrderBy(p => p.X).LastOrDefault(), Any: l.Points.Any(p => IsFinite(p.X) && IsFinite(p.Y))))
            .Where(l => l.Series.EndLabel is not null && l.Any)
            .Select(l => (l.Series, X: X.Map(l.Last.X), Y: Y.Map(l.Last.Y)))
            .OrderBy(l => l.Y).ToList();
        if (labelled.Count == 0) return;
        const double spacing = ChartTheme.NoteSize + 2;
        var at = new double[labelled.Count];
        for (int i = 0; i < labelled.Count; i++) at[i] = Math.Max(labelled[i].Y, i == 0 ? plotTop : at[i - 1] + spacing);
        // Pushed past the bottom: move the stack up as far as it must.
        double overflow = at[^1] - plotBottom;
        for (int i = labelled.Count - 1; i >= 0 && overflow > 0; i--)
        {
            at[i] -= overflow;
            overflow = i > 0 ? at[i - 1] - (at[i] - spacing) : 0;
        }
        svg.BeginGroup("end-labels");
        for (int i = 0; i < labelled.Count; i++)
        {
            var (series, x, y) = labelled[i];
            var colour = ChartTheme.ColourOf(series.Index);
            svg.Line(x, y, plotRight + 6, at[i], ChartTheme.TintOf(series.Index, 0.6), 0.8);
            svg.Text(plotRight + 8, at[i] + (ChartTheme.NoteSize * 0.35), series.EndLabel!, ChartTheme.NoteSize, fill: colour, cssClass: "end-label",
                data: [("data-series", series.Name)]);
        }
        svg.EndGroup();
    }

    /// <summary>Places the legend entries (the lines', then the keys') left to right, wrapping onto further rows when a row
    /// is full; each key starts a row of its own, and a long one wraps onto more.</summary>
    private (List<LegendItem> Placed, double Bottom) LayoutLegend(double left, double right, double top)
    {
        var placed = new List<LegendItem>();
        double x = left, y = top + (ChartTheme.LegendSize / 2);
        foreach (var series in Lines.Where(l => l.InLegend))
        {
            double width = 26 + 6 + ChartTheme.TextWidth(LegendText(series), ChartTheme.LegendSize);
            if (x > left && x + width > right)
            {
                x = left;
                y += LegendRow;
            }
            placed.Add(new LegendItem(series, null, LegendText(series), true, x, y));
            x += width + 22;
        }
        foreach (var key in Keys)
        {
            if (placed.Count > 0) y += placed[^1].Key is null ? LegendRow : ChartTheme.NoteSize + 6;
            var lines = ChartTheme.Wrap(key.Text, ChartTheme.NoteSize, right - left - 32);
            for (int i = 0; i < lines.Count; i++)
            {
                if (i > 0) y += ChartTheme.NoteSize + 3;
                placed.Add(new LegendItem(null, key, lines[i], i == 0, left, y));
            }
        }
        return (placed, placed.Count == 0 ? top : y + (ChartTheme.LegendSize / 2));
    }

    private static void DrawLegend(SvgBuilder svg, List<LegendItem> legend)
    {
        svg.BeginGroup("legend");
        foreach (var item in legend)
        {
            double left = item.X, y = item.Y;
            if (item.Key is { } key)
            {
                if (item.Swatch)
                {
                    if (key.Fill is { } fill) svg.Rect(left, y - 5, 26, 10, fill, stroke: key.Stroke);
                    else svg.Line(left, y, left + 26, y, key.Stroke ?? ChartTheme.Axis, 1.6, key.Dash);
                }
                svg.Text(left + 32, y + (ChartTheme.NoteSize * 0.35), item.Text, ChartTheme.NoteSize, fill: ChartTheme.Text, cssClass: "legend-key");
                continue;
            }
            var series = item.Series!;
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
            svg.Text(left + 32, y + (ChartTheme.LegendSize * 0.35), item.Text, ChartTheme.LegendSize, fill: empty ? ChartTheme.MutedText : ChartTheme.Text, cssClass: "legend-entry");
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
    /// <param name="Points">The points, in any order; a point whose Y is NaN is a gap: the line breaks there.</param>
    /// <param name="Markers">Whether points get markers (few points) or not (a dense curve).</param>
    /// <param name="Whiskers">Whether points carry a low–high range.</param>
    /// <param name="EmptyText">What the legend says when the series has no point.</param>
    /// <param name="Dash">A dash pattern instead of the client's own (two lines of one client in one chart).</param>
    /// <param name="Line">Whether the points are joined by a line (marks alone otherwise).</param>
    /// <param name="MarkerSize">The markers' size.</param>
    public sealed record Series(string Name, int Index, IReadOnlyList<Point> Points, bool Markers, bool Whiskers, string EmptyText = "no data", string? Dash = null, bool Line = true, double MarkerSize = 4.5)
    {
        /// <summary>Whether the legend has an entry for it (lines of many probes are told apart by their end labels).</summary>
        public bool InLegend { get; init; } = true;

        /// <summary>A label beside the line's last point, in the right margin.</summary>
        public string? EndLabel { get; init; }
    }

    /// <summary>A point, with the ends of its whisker when it has one.</summary>
    public readonly record struct Point(double X, double Y, double Low = double.NaN, double High = double.NaN);

    /// <summary>An upright line across the plot at <paramref name="X"/>.</summary>
    /// <param name="X">Where, on the x axis.</param>
    /// <param name="Colour">Its colour.</param>
    /// <param name="Dash">Its dash pattern.</param>
    /// <param name="CssClass">What it is, for readers of the SVG.</param>
    /// <param name="Label">Text along it, upwards from the plot's bottom, or none.</param>
    /// <param name="Lane">The lane (its position in <see cref="Lanes"/>) it starts from, so that a client's fault runs from
    /// its own row down through the plot; none to start at the plot's top.</param>
    public sealed record Mark(double X, string Colour, string? Dash, string CssClass, string? Label = null, int? Lane = null);

    /// <summary>A legend entry that is not a line.</summary>
    /// <param name="Text">What it means.</param>
    /// <param name="Fill">A swatch's fill; none for a line.</param>
    /// <param name="Stroke">The swatch's outline, or the line's colour.</param>
    /// <param name="Dash">The line's dash pattern.</param>
    public sealed record Key(string Text, string? Fill, string? Stroke = null, string? Dash = null);

    /// <summary>A placed legend entry: a line's, or one row of a key's text (the first with its swatch).</summary>
    private sealed record LegendItem(Series? Series, Key? Key, string Text, bool Swatch, double X, double Y);
}
