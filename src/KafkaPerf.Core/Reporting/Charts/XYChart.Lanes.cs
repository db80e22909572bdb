namespace KafkaPerf.Reporting.Charts;

/// <summary>The lanes above a time series' plot: one row per client, on the plot's own x axis, holding what the lines
/// below cannot say - the client's own fault windows (a band in its colour, from its fault to its partition's new leader
/// or the node's return) and the intervals in which it acknowledged nothing while records waited (solid blocks, each with
/// its count of waiting records), so that a gap in a line reads as an outage where there was one and as no data where
/// there was none.</summary>
internal sealed partial class XYChart
{
    private const double LaneBarHeight = 20;

    // An outage block leaves the top of its row to the fault window's band, so that a window is seen where blocks fill it.
    private const double OutageTop = 7;
    private const double LaneLabelLine = ChartTheme.NoteSize + 3;
    private const double LaneGap = 6;
    private const double OutageTextSize = 9.5;

    // The lanes' labels wrap on this width, before the plot's own is known (it depends on the y ticks): a little narrower
    // than any plot of this width, so that a label never runs past the plot's right edge.
    private const double LaneLabelWidth = Width - 170;

    private static double LaneHeight(Lane lane) =>
        (LaneLabels(lane).Count * LaneLabelLine) + LaneBarHeight + LaneGap;

    /// <summary>A lane's label rows: its label, or its name when it has none and the name is too wide for the row's left.</summary>
    private static IReadOnlyList<string> LaneLabels(Lane lane) =>
        lane.Label is { Length: > 0 } label ? ChartTheme.Wrap(label, ChartTheme.NoteSize, LaneLabelWidth)
        : NameFitsLeft(lane) ? [] : [lane.Name];

    // Left of the plot there is room for a short name at least (the y ticks' width comes on top).
    private static bool NameFitsLeft(Lane lane) => ChartTheme.TextWidth(lane.Name, ChartTheme.NoteSize) <= 60;

    /// <summary>Draws the lanes from <paramref name="top"/> down.</summary>
    /// <returns>Each lane's bar row's top, by its position, where its marks start.</returns>
    private Dictionary<int, double> DrawLanes(SvgBuilder svg, double top, double plotLeft, double plotRight)
    {
        var barTops = new Dictionary<int, double>();
        if (Lanes.Count == 0) return barTops;
        double y = top;
        for (int i = 0; i < Lanes.Count; i++)
        {
            var lane = Lanes[i];
            var colour = ChartTheme.ColourOf(lane.Index);
            svg.BeginGroup("lane", [("data-lane", lane.Name)]);
            var labels = LaneLabels(lane);
            double widest = labels.Count == 0 ? 0 : labels.Max(l => ChartTheme.TextWidth(l, ChartTheme.NoteSize));
            // The label starts over the lane's first window when it fits there, so that it reads as that window's.
            double anchor = lane.Windows.Count > 0 ? X.Map(lane.Windows.Min(w => w.From)) : plotLeft;
            // Just right of the fault's mark, which runs down through the lanes below.
            double labelX = Math.Max(plotLeft, Math.Min(anchor + 4, plotRight - widest));
            foreach (var label in labels)
            {
                y += LaneLabelLine;
                svg.Text(labelX, y - 3, label, ChartTheme.NoteSize, fill: colour, cssClass: "lane-label");
            }
            double barTop = y + 1;
            barTops[i] = barTop;
            svg.Rect(plotLeft, barTop, plotRight - plotLeft, LaneBarHeight, fill: "#f3f3f3", cssClass: "lane-row");
            if (NameFitsLeft(lane))
                svg.Text(plotLeft - 6, barTop + (LaneBarHeight / 2) + (ChartTheme.NoteSize * 0.35), lane.Name, ChartTheme.NoteSize, anchor: "end", fill: colour, cssClass: "lane-name");
            foreach (var window in lane.Windows)
            {
                double from = X.Map(window.From), to = X.Map(window.To);
                svg.Rect(from, barTop, Math.Max(to - from, 1.5), LaneBarHeight, fill: ChartTheme.TintOf(lane.Index, 0.3), cssClass: "fault-window",
                    data: [("data-lane", lane.Name), ("data-from", SvgBuilder.Value(window.From)), ("data-to", SvgBuilder.Value(window.To)), ("data-open", window.Open ? "true" : "false")],
                    tooltip: window.Tooltip);
            }
            foreach (var outage in lane.Outages)
            {
                double from = X.Map(outage.From), to = X.Map(outage.To);
                // A pixel apart, so that neighbouring intervals stay countable.
                double width = Math.Max(to - from - 1, 1);
                svg.Rect(from + 0.5, barTop + OutageTop, width, LaneBarHeight - OutageTop - 1, fill: colour, cssClass: "outage",
                    data: [("data-lane", lane.Name), ("data-from", SvgBuilder.Value(outage.From)), ("data-to", SvgBuilder.Value(outage.To)),
                        ("data-waiting", outage.Waiting.ToString(System.Globalization.CultureInfo.InvariantCulture))],
                    tooltip: outage.Tooltip);
                // As written elsewhere (1.89k) where it fits, else rounded to a thousand (2k); the exact count is the tooltip's.
                string count = ChartFormat.Count(outage.Waiting);
                if (ChartTheme.TextWidth(count, OutageTextSize) > width - 2 && outage.Waiting >= 1_000)
                    count = ChartFormat.Count(Math.Round(outage.Waiting / 1_000.0) * 1_000);
                if (ChartTheme.TextWidth(count, OutageTextSize) <= width - 2)
                    svg.Text(from + 0.5 + (width / 2), barTop + ((LaneBarHeight + OutageTop - 1) / 2) + (OutageTextSize * 0.36), count, OutageTextSize, anchor: "middle", fill: "#ffffff", cssClass: "outage-count");
            }
            svg.EndGroup();
            y = barTop + LaneBarHeight + LaneGap;
        }
        return barTops;
    }

    /// <summary>One row above the plot.</summary>
    /// <param name="Name">Whose (a client, or a client's probe): written at the row's left when it fits there.</param>
    /// <param name="Index">The client's place in the plan: its colour.</param>
    /// <param name="Label">What happened, in the axis' time (<c>confluent: kill:leader at 5.1 s …</c>), over the row; none
    /// for a row of outages alone.</param>
    /// <param name="Windows">The client's fault windows.</param>
    /// <param name="Outages">The intervals in which it acknowledged nothing while records waited.</param>
    public sealed record Lane(string Name, int Index, string? Label, IReadOnlyList<LaneWindow> Windows, IReadOnlyList<LaneOutage> Outages);

    /// <summary>A fault's window in a lane.</summary>
    /// <param name="From">The fault, on the x axis.</param>
    /// <param name="To">Its partition's new leader or the node's return; the axis' end when neither was seen.</param>
    /// <param name="Open">Whether neither was seen before the run's end.</param>
    /// <param name="Tooltip">What it is, in words.</param>
    public sealed record LaneWindow(double From, double To, bool Open, string Tooltip);

    /// <summary>An interval in which the client acknowledged (or consumed) nothing while records waited.</summary>
    /// <param name="From">The interval's start.</param>
    /// <param name="To">Its end.</param>
    /// <param name="Waiting">Records sent or due and not yet acknowledged at its end (the median over the runs that had it).</param>
    /// <param name="Tooltip">The same, in words.</param>
    public sealed record LaneOutage(double From, double To, long Waiting, string Tooltip);
}
