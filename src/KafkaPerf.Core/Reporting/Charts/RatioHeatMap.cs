using System.Globalization;

namespace KafkaPerf.Reporting.Charts;

/// <summary>The comparison tables as one picture: a row per cell, a column per candidate client, each square coloured
/// by the candidate/baseline throughput ratio on a diverging scale centred on 1 and labelled with the ratio itself.</summary>
internal static class RatioHeatMap
{
    private const double CellHeight = 46;
    private const double SwatchWidth = 48;

    // Red (slower) through near-white (on par) to blue (faster), at log2(ratio) = −1, −0.5, 0, 0.5, 1.
    private static readonly (double At, int R, int G, int B)[] Stops =
        [(-1, 0xb2, 0x18, 0x2b), (-0.5, 0xef, 0x8a, 0x62), (0, 0xf7, 0xf7, 0xf7), (0.5, 0x67, 0xa9, 0xcf), (1, 0x21, 0x66, 0xac)];

    /// <param name="title">The chart's title.</param>
    /// <param name="subtitle">What was compared.</param>
    /// <param name="baseline">The baseline client.</param>
    /// <param name="candidates">The column headers.</param>
    /// <param name="rows">Per row: its label and, per candidate, the ratio and verdict (null when not compared).</param>
    /// <param name="note">How the ratio was estimated.</param>
    public static string Render(string title, string subtitle, string baseline, IReadOnlyList<string> candidates, IReadOnlyList<Row> rows, string note)
    {
        double labelWidth = rows.Count == 0 ? 0 : rows.Max(r => ChartTheme.TextWidth(r.Label, ChartTheme.TickSize));
        double columnWidth = Math.Max(104, candidates.Count == 0 ? 0 : candidates.Max(c => ChartTheme.TextWidth(c, ChartTheme.LegendSize)) + 16);
        double gridLeft = 16 + labelWidth + 12;
        // As wide as the grid and the colour scale need, and at least as wide as the line charts; text wraps to fit.
        double width = Math.Max(Math.Max(gridLeft + (candidates.Count * columnWidth) + 16, 16 + (9 * SwatchWidth) + 16), XYChart.Width);
        var subtitleLines = ChartTheme.Wrap(subtitle, ChartTheme.SubtitleSize, width - 32);
        var legendLines = ChartTheme.Wrap(LegendLine(baseline), ChartTheme.NoteSize, width - 32);
        var noteLines = ChartTheme.Wrap(note, ChartTheme.NoteSize, width - 32);
        bool hasData = rows.Count > 0 && candidates.Count > 0;
        double subtitleTop = 12 + ChartTheme.TitleSize + 3;
        double gridTop = subtitleTop + (subtitleLines.Count * (ChartTheme.SubtitleSize + 5)) + 18 + ChartTheme.LegendSize + 8;
        double gridHeight = hasData ? rows.Count * CellHeight : 80;
        double legendTop = gridTop + gridHeight + 22;
        double textTop = legendTop + 16 + ChartTheme.TickSize + 2 + ChartTheme.NoteSize + 10;
        double lineHeight = ChartTheme.NoteSize + 6;
        double height = textTop + ((legendLines.Count + noteLines.Count - 1) * lineHeight) + 14;

        var svg = new SvgBuilder(width, height, title);
        svg.Text(16, 12 + ChartTheme.TitleSize, title, ChartTheme.TitleSize, bold: true, cssClass: "chart-title");
        for (int i = 0; i < subtitleLines.Count; i++)
            svg.Text(16, subtitleTop + ((i + 1) * (ChartTheme.SubtitleSize + 5)), subtitleLines[i], ChartTheme.SubtitleSize, fill: ChartTheme.MutedText, cssClass: "chart-subtitle");
        if (!hasData)
        {
            svg.Rect(16, gridTop, width - 32, gridHeight, fill: "#fcfcfc", stroke: ChartTheme.Grid);
            svg.Text(width / 2, gridTop + (gridHeight / 2) + 5, candidates.Count == 0 ? "no data: a single client has nothing to be compared with" : "no data: no cell has runs of both clients",
                ChartTheme.AxisLabelSize + 1, anchor: "middle", fill: ChartTheme.MutedText, cssClass: "no-data");
        }
        else
        {
            svg.BeginGroup("columns");
            for (int c = 0; c < candidates.Count; c++)
                svg.Text(gridLeft + ((c + 0.5) * columnWidth), gridTop - 8, candidates[c], ChartTheme.LegendSize, anchor: "middle", bold: true, cssClass: "column-label");
            svg.EndGroup();
            for (int r = 0; r < rows.Count; r++)
            {
                double y = gridTop + (r * CellHeight);
                svg.Text(gridLeft - 10, y + (CellHeight / 2) + (ChartTheme.TickSize * 0.35), rows[r].Label, ChartTheme.TickSize, anchor: "end", cssClass: "row-label");
                for (int c = 0; c < candidates.Count; c++)
                {
                    double x = gridLeft + (c * columnWidth);
                    var cell = c < rows[r].Cells.Count ? rows[r].Cells[c] : null;
                    bool known = cell is { } k && double.IsFinite(k.Ratio) && k.Ratio > 0;
                    var fill = known ? ColourOf(cell!.Ratio) : ChartTheme.MissingFill;
                    svg.Rect(x + 1, y + 1, columnWidth - 2, CellHeight - 2, fill, stroke: "#ffffff", cssClass: "ratio-cell");
                    var ink = known && IsDark(fill) ? "#ffffff" : ChartTheme.Text;
                    if (known)
                    {
                        svg.Text(x + (columnWidth / 2), y + 21, Ratio(cell!.Ratio), ChartTheme.LegendSize + 1, anchor: "middle", fill: ink, bold: true, cssClass: "ratio");
                        if (cell.Verdict is { Length: > 0 } verdict)
                            svg.Text(x + (columnWidth / 2), y + 36, verdict, ChartTheme.NoteSize - 0.5, anchor: "middle", fill: ink, cssClass: "verdict");
                    }
                    else
                    {
                        svg.Text(x + (columnWidth / 2), y + 27, cell?.Verdict ?? "no data", ChartTheme.NoteSize, anchor: "middle", fill: ChartTheme.MutedText, cssClass: "ratio-missing");
                    }
                }
            }
        }

        svg.BeginGroup("legend");
        for (int i = 0; i < 9; i++)
        {
            double ratio = Math.Pow(2, (i - 4) / 4.0);
            double x = 16 + (i * SwatchWidth);
            svg.Rect(x, legendTop, SwatchWidth, 16, ColourOf(ratio), stroke: "#ffffff");
            var label = i == 0 ? "≤ 0.5×" : i == 8 ? "≥ 2×" : Ratio(ratio);
            svg.Text(x + (SwatchWidth / 2), legendTop + 16 + ChartTheme.TickSize + 2, label, ChartTheme.TickSize - 1, anchor: "middle", cssClass: "legend-tick");
        }
        double textY = textTop;
        foreach (var line in legendLines)
        {
            svg.Text(16, textY, line, ChartTheme.NoteSize, cssClass: "legend-text");
            textY += lineHeight;
        }
        foreach (var line in noteLines)
        {
            svg.Text(16, textY, line, ChartTheme.NoteSize, fill: ChartTheme.MutedText, cssClass: "chart-note");
            textY += lineHeight;
        }
        svg.EndGroup();
        return svg.ToString();
    }

    /// <summary>The colour of a ratio: its log2, clamped to ±1 (0.5× to 2×), through the diverging stops.</summary>
    internal static string ColourOf(double ratio)
    {
        double at = Math.Clamp(Math.Log2(ratio), -1, 1);
        for (int i = 1; i < Stops.Length; i++)
        {
            if (at <= Stops[i].At)
            {
                var (a0, r0, g0, b0) = Stops[i - 1];
                var (a1, r1, g1, b1) = Stops[i];
                double f = (at - a0) / (a1 - a0);
                return string.Create(CultureInfo.InvariantCulture,
                    $"#{Mix(r0, r1, f):x2}{Mix(g0, g1, f):x2}{Mix(b0, b1, f):x2}");
            }
        }
        return "#2166ac";
    }

    private static int Mix(int from, int to, double fraction) => (int)Math.Round(from + ((to - from) * fraction));

    private static bool IsDark(string colour)
    {
        int r = int.Parse(colour.AsSpan(1, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        int g = int.Parse(colour.AsSpan(3, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        int b = int.Parse(colour.AsSpan(5, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        return ((0.299 * r) + (0.587 * g) + (0.114 * b)) / 255 < 0.55;
    }

    private static string Ratio(double ratio) => ratio.ToString("0.00", CultureInfo.InvariantCulture) + "×";

    private static string LegendLine(string baseline) =>
        $"Colour and number: candidate ÷ {baseline} messages/s. Above 1 (blue) the candidate is faster than {baseline}; below 1 (red) slower.";

    /// <summary>One row: a cell of the plan.</summary>
    /// <param name="Label">Scenario, payload size and whatever else tells the rows apart.</param>
    /// <param name="Cells">One entry per candidate, in column order; null where that candidate has no comparison (an
    /// entry with a NaN ratio says why in its verdict).</param>
    public sealed record Row(string Label, IReadOnlyList<Entry?> Cells);

    /// <summary>A candidate's ratio in one cell.</summary>
    /// <param name="Ratio">Candidate/baseline messages per second.</param>
    /// <param name="Verdict">faster, slower, on par or inconclusive.</param>
    public sealed record Entry(double Ratio, string? Verdict);
}
