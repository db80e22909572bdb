using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Charts;

/// <summary>
/// What the time series of one cell share: one time axis (seconds from the first record's due time, the warm-up
/// included and marked), each row's line per interval with a gap wherever no run has a figure, and each row's lane - its
/// own fault windows and the intervals in which it acknowledged nothing while records waited. A row is a client (a
/// cell's charts) or a client's probe (a rate search's); each value is the median over the row's runs of that interval.
/// </summary>
internal sealed class CellTimeline
{
    private readonly ScenarioKind _scenario;
    private readonly bool _groupEvents;
    private readonly bool _faults;

    /// <param name="rows">The rows, each with its measured, successful runs that have a time series.</param>
    /// <param name="scenario">The cell's scenario: a produce waits for acknowledgements, a roundtrip or consume for records.</param>
    public CellTimeline(IReadOnlyList<Row> rows, ScenarioKind scenario)
    {
        _scenario = scenario;
        var runs = rows.SelectMany(r => r.Runs).ToList();
        _groupEvents = runs.Any(r => r.Rebalances is { Count: > 0 });
        _faults = runs.Any(r => r.Faults is { Count: > 0 });
        End = runs.SelectMany(r => r.Intervals!).Select(i => i.StartSeconds + i.LengthSeconds).DefaultIfEmpty(1).Max();
        var warmups = runs.Where(r => r.Intervals![0].Warmup && r.Intervals!.Any(i => !i.Warmup))
            .Select(r => r.Intervals!.First(i => !i.Warmup).StartSeconds).ToList();
        WarmupEnd = warmups.Count == 0 ? null : Statistics.Summary.Of(warmups).Median;
        Lanes = [.. rows.Select(Lane).Where(l => l.Windows.Count > 0 || l.Outages.Count > 0 || l.Label is not null)];
    }

    /// <summary>The end of the rows' last interval: the axis' end.</summary>
    public double End { get; }

    /// <summary>Where the measured part starts on the axis; none without a warm-up.</summary>
    public double? WarmupEnd { get; }

    /// <summary>What a record waits for in this cell, in the words of the charts (<c>acknowledged</c>, <c>consumed</c>).</summary>
    public string Done => _scenario == ScenarioKind.Produce ? "acknowledged" : "consumed";

    /// <summary>The lanes of the rows that have a fault or an outage.</summary>
    public IReadOnlyList<XYChart.Lane> Lanes { get; }

    /// <summary>The x axis' label: where it counts from, said once.</summary>
    public string XLabel => WarmupEnd is { } warm
        ? $"seconds from the first record's due time (warm-up to {Seconds(warm)}, then the measured part)"
        : "seconds from the first record's due time";

    /// <summary>The upright marks: each lane's faults (dashed) and the ends of its windows (dotted), from its own row down,
    /// and the warm-up's end.</summary>
    public IReadOnlyList<XYChart.Mark> Marks
    {
        get
        {
            var marks = new List<XYChart.Mark>();
            if (WarmupEnd is { } warm) marks.Add(new XYChart.Mark(warm, "#777777", "3 3", "warmup-end", $"warm-up ends, {Seconds(warm)}"));
            for (int i = 0; i < Lanes.Count; i++)
            {
                foreach (var window in Lanes[i].Windows)
                {
                    var colour = ChartTheme.ColourOf(Lanes[i].Index);
                    marks.Add(new XYChart.Mark(window.From, colour, "5 3", "fault-mark", Lane: i));
                    if (!window.Open && window.To > window.From) marks.Add(new XYChart.Mark(window.To, colour, "1.5 3", "recovery-mark", Lane: i));
                }
            }
            return marks;
        }
    }

    /// <summary>The warm-up's span, shaded.</summary>
    public (double From, double To)? Shade => WarmupEnd is { } warm ? (0, warm) : null;

    /// <summary>What the lanes' bands and blocks mean, for the legend; none when nothing is drawn in them.</summary>
    public IReadOnlyList<XYChart.Key> Keys
    {
        get
        {
            var keys = new List<XYChart.Key>();
            var windows = Lanes.FirstOrDefault(l => l.Windows.Count > 0);
            if (windows is not null)
                keys.Add(new XYChart.Key(_groupEvents && !_faults
                    ? "Band in a client's colour and row: its own rebalance window, from the membership event (dashed upright) to its group stable again (dotted upright)."
                    : "Band in a client's colour and row: its own fault window, from its fault (dashed upright) to its partition's new leader or the node's return (dotted upright).",
                    ChartTheme.TintOf(windows.Index, 0.3)));
            var outages = Lanes.FirstOrDefault(l => l.Outages.Count > 0);
            if (outages is not null)
                keys.Add(new XYChart.Key($"Solid block: an interval in which the client {Done} nothing; its number: records sent or due and not {Done} at its end. A gap without a block: no figure.",
                    ChartTheme.ColourOf(outages.Index)));
            return keys;
        }
    }

    /// <summary>Per interval of <paramref name="runs"/>, the median of <paramref name="value"/> at the interval's
    /// middle; NaN (a gap) where no run has a figure. With <paramref name="fullOnly"/>, an interval shorter than half its
    /// run's first measured one (the drain at a run's end) counts as without a figure.</summary>
    public static List<XYChart.Point> Line(IReadOnlyList<RunRecord> runs, Func<IntervalRecord, double> value, bool fullOnly = false)
    {
        var points = new List<XYChart.Point>();
        int count = runs.Count == 0 ? 0 : runs.Max(r => r.Intervals!.Count);
        for (int i = 0; i < count; i++)
        {
            var all = runs.Where(r => i < r.Intervals!.Count).Select(r => (Run: r, Interval: r.Intervals![i])).ToList();
            double middle = all.Average(x => x.Interval.StartSeconds + (x.Interval.LengthSeconds / 2));
            var values = all.Where(x => !fullOnly || x.Interval.LengthSeconds >= FullLength(x.Run) / 2)
                .Select(x => value(x.Interval)).Where(double.IsFinite).Order().ToList();
            double median = values.Count == 0 ? double.NaN
                : values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
            points.Add(new XYChart.Point(middle, median));
        }
        return points;
    }

    /// <summary>Records sent or due and not yet acknowledged (a produce) or consumed (a roundtrip) at the end of interval
    /// <paramref name="index"/>, when the run acknowledged (consumed) none in it; none otherwise, or when it cannot say (a
    /// consume of a topic filled before it has no lag).</summary>
    internal long? Waiting(RunRecord run, int index)
    {
        var intervals = run.Intervals!;
        var interval = intervals[index];
        long done = _scenario == ScenarioKind.Produce ? interval.Acknowledged : interval.Consumed;
        if (done > 0) return null;
        long pending = _scenario == ScenarioKind.Produce ? interval.InFlight : interval.Lag ?? -1;
        if (pending < 0) return null;
        long dueNotSent = 0;
        if (run.OfferedRate is { } rate && rate > 0)
        {
            // Record k is due k / rate seconds after record 0, so ⌈t · rate⌉ are due before t; every record the run had
            // was sent by its end.
            long sentSoFar = 0, total = 0;
            for (int i = 0; i < intervals.Count; i++)
            {
                total += intervals[i].Sent;
                if (i <= index) sentSoFar += intervals[i].Sent;
            }
            long due = Math.Min(total, (long)Math.Ceiling((interval.StartSeconds + interval.LengthSeconds) * rate));
            dueNotSent = Math.Max(0, due - sentSoFar);
        }
        long waiting = pending + dueNotSent;
        return waiting > 0 ? waiting : null;
    }

    /// <summary>A time on the axis, as the charts write it.</summary>
    public static string Seconds(double seconds) => seconds.ToString("0.0", CultureInfo.InvariantCulture) + " s";

    private XYChart.Lane Lane(Row row)
    {
        var outages = new List<XYChart.LaneOutage>();
        int count = row.Runs.Count == 0 ? 0 : row.Runs.Max(r => r.Intervals!.Count);
        for (int i = 0; i < count; i++)
        {
            var at = row.Runs.Where(r => i < r.Intervals!.Count).ToList();
            var waiting = at.Select(r => (Run: r, Waiting: Waiting(r, i))).Where(x => x.Waiting is not null).ToList();
            if (waiting.Count == 0) continue;
            double from = waiting.Average(x => x.Run.Intervals![i].StartSeconds);
            double to = waiting.Average(x => x.Run.Intervals![i].StartSeconds + x.Run.Intervals![i].LengthSeconds);
            long median = (long)Statistics.Summary.Of(waiting.Select(x => (double)x.Waiting!.Value)).Median;
            string runs = at.Count > 1 ? $" (the median of the {waiting.Count} of {at.Count} runs that {Done} none)" : string.Empty;
            outages.Add(new XYChart.LaneOutage(from, to, median,
                $"{row.Name}: nothing {Done} from {Seconds(from)} to {Seconds(to)}; {ChartFormat.Messages(median)} records waiting at its end{runs}"));
        }

        var windows = new List<XYChart.LaneWindow>();
        var said = new List<string>();
        foreach (var fault in row.Runs.SelectMany(r => (r.Faults ?? []).Select(f => (Run: r, Fault: f))).GroupBy(x => x.Fault.Fault))
        {
            string name = fault.Key.Split('@')[0];
            var fired = fault.Where(x => x.Fault.FiredAtSeconds is not null).ToList();
            if (fired.Count == 0)
            {
                said.Add($"{name} did not fire");
                continue;
            }
            double from = Statistics.Summary.Of(fired.Select(x => x.Fault.FiredAtSeconds!.Value)).Median;
            string at = $"{name} at {Seconds(from)}" + (WarmupEnd is { } warm ? $" ({Seconds(from - warm)} into the measured part)" : string.Empty);
            var ends = fired.Select(x => WindowEnd(x.Fault)).Where(e => e is not null).Select(e => e!.Value).ToList();
            if (ends.Count > 0)
            {
                double to = Statistics.Summary.Of(ends.Select(e => e.At)).Median;
                string what = ends.GroupBy(e => e.What).OrderByDescending(g => g.Count()).First().Key;
                // The tooltip keeps the fault as --fault spelled it, whose time counts from the measured part's start.
                windows.Add(new XYChart.LaneWindow(from, Math.Max(from, to), false, $"{row.Name}, --fault {fault.Key}: {at} to {what} at {Seconds(to)}"));
                said.Add($"{at}, {what} at {Seconds(to)}");
            }
            else if (fired.Any(x => x.Fault.Node is not null))
            {
                // The fault acted on a node, and neither a new leader nor the node's return was seen: the window is open.
                windows.Add(new XYChart.LaneWindow(from, End, true, $"{row.Name}, --fault {fault.Key}: {at}; no new leader and no return seen by the run's end"));
                said.Add($"{at}, no new leader or return seen by the run's end");
            }
            else
            {
                said.Add(at);
            }
        }
        foreach (var e in row.Runs.SelectMany(r => (r.Rebalances ?? []).Select(e => (Run: r, Event: e))).GroupBy(x => x.Event.Event))
        {
            string name = e.Key.Split('@')[0];
            var fired = e.Where(x => x.Event.FiredAtSeconds is not null).ToList();
            if (fired.Count == 0)
            {
                said.Add($"{name} did not fire");
                continue;
            }
            double from = Statistics.Summary.Of(fired.Select(x => x.Event.FiredAtSeconds!.Value)).Median;
            string at = $"{name} at {Seconds(from)}" + (WarmupEnd is { } warm ? $" ({Seconds(from - warm)} into the measured part)" : string.Empty);
            var stable = fired.Where(x => x.Event.StableAfterSeconds is not null).Select(x => x.Event.StableAfterSeconds!.Value).ToList();
            if (stable.Count * 2 > fired.Count)
            {
                double to = from + Statistics.Summary.Of(stable).Median;
                windows.Add(new XYChart.LaneWindow(from, Math.Max(from, to), false, $"{row.Name}, --fault {e.Key}: {at} to the group stable again at {Seconds(to)}"));
                said.Add($"{at}, group stable at {Seconds(to)}");
            }
            else
            {
                windows.Add(new XYChart.LaneWindow(from, End, true, $"{row.Name}, --fault {e.Key}: {at}; the group not stable by the run's end"));
                said.Add($"{at}, group not stable by the run's end");
            }
        }
        string? label = said.Count == 0 ? null
            : $"{row.Name}: {string.Join("; ", said)}{(row.Runs.Count > 1 ? $" (medians over {row.Runs.Count} runs)" : string.Empty)}";
        return new XYChart.Lane(row.Name, row.Index, label, windows, outages);
    }

    /// <summary>Where a fault's window ends for one run: the later of the partition's new leader and the node's return;
    /// without either, the in-sync replicas' change (a follower's loss, which an <c>acks=all</c> producer waits for).</summary>
    private static (double At, string What)? WindowEnd(FaultRecord fault)
    {
        double fired = fault.FiredAtSeconds!.Value;
        (double At, string What)? end = null;
        if (fault.ElectionSeconds is { } election) end = (fired + election, "new leader");
        if (fault.BackAtSeconds is { } back && (end is null || back > end.Value.At)) end = (back, FaultSpec.IsNetworkText(fault.Fault) ? "links healed" : "node back");
        if (end is null && fault.InSyncChangeSeconds is { } change) end = (fired + change, "in-sync replicas changed");
        return end;
    }

    /// <summary>A run's interval length: its first measured interval's (the warm-up is one interval of its own length).</summary>
    private static double FullLength(RunRecord run) => (run.Intervals!.FirstOrDefault(i => !i.Warmup) ?? run.Intervals![0]).LengthSeconds;

    /// <summary>One row of the charts: a client, or a client's probe.</summary>
    /// <param name="Name">What the lane and its label call it.</param>
    /// <param name="Index">The client's place in the plan: its colour.</param>
    /// <param name="Runs">Its measured, successful runs with a time series.</param>
    public sealed record Row(string Name, int Index, IReadOnlyList<RunRecord> Runs);
}
