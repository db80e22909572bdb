using System.Globalization;
using System.Xml.Linq;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

public partial class ChartTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    [Fact]
    public async Task For_TwoClientsAtARate_NoThroughputOrRatioChartAndNoElapsedRatioTables()
    {
        // At a rate the schedule fixes elapsed time and throughput: charts and tables of them would compare nothing.
        var registry = new ClientRegistry([
            new KafkaPerf.Clients.InMemory.InMemoryClientFactory(new KafkaPerf.Clients.InMemory.InMemoryClientOptions { ReportsDeliveryLatency = true }),
            new KafkaPerf.Clients.InMemory.InMemoryClientFactory(new KafkaPerf.Clients.InMemory.InMemoryClientOptions { Name = "other", ReportsDeliveryLatency = true })]);
        var plan = new KafkaPerf.Plans.BenchmarkPlanBuilder().Clients("inmemory", "other").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(2_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.FromMilliseconds(100)).Repeat(2).Build();

        var result = await new KafkaPerf.Running.BenchmarkRunner(registry, ClusterConnection.None)
            .RunAsync(plan, cancellationToken: TestContext.Current.CancellationToken);
        var names = ReportCharts.For(result).Select(c => c.Name).ToList();
        var markdown = new StringWriter();
        DefaultExporters.Markdown.Export(result, markdown);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        Assert.Contains(names, n => n.StartsWith("rate-produce-100b", StringComparison.Ordinal));
        Assert.DoesNotContain(names, n => n.StartsWith("throughput-", StringComparison.Ordinal) || n == "ratios");
        Assert.DoesNotContain("Elapsed time, mean ratio", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("p99 response time of each run against the baseline's", markdown.ToString(), StringComparison.Ordinal);
        // The HTML report shows the time series (rate and latency per interval) instead of throughput and its ratios.
        var html = new StringWriter();
        DefaultExporters.Html.Export(result, html);
        Assert.Contains("<nav><a href=\"#over-time\">Over time</a><a href=\"#latency\">Latency</a><a href=\"#tables\">Tables</a></nav>", html.ToString(), StringComparison.Ordinal);
        Assert.Contains("<figure id=\"chart-rate-produce-100b", html.ToString(), StringComparison.Ordinal);
        Assert.Contains("<figure id=\"chart-latency-time-produce-100b", html.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("Throughput ratios", html.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RateChart_LeavesOutTheShortLastInterval()
    {
        // A run at a rate ends with a short tail (the drain after its last due time); drawn as a rate it looked like a
        // collapse at the end of every run (seen in seed 003's report at 2 000 msg/s).
        var registry = new ClientRegistry([new KafkaPerf.Clients.InMemory.InMemoryClientFactory(new KafkaPerf.Clients.InMemory.InMemoryClientOptions { ReportsDeliveryLatency = true })]);
        var plan = new KafkaPerf.Plans.BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(2_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(2).Build();
        var result = await new KafkaPerf.Running.BenchmarkRunner(registry, ClusterConnection.None)
            .RunAsync(plan, cancellationToken: TestContext.Current.CancellationToken);
        static IntervalRecord Interval(int index, double length, long acknowledged) => new()
        {
            Index = index, StartSeconds = index, LengthSeconds = length, Warmup = false, Sent = acknowledged, Acknowledged = acknowledged,
            Consumed = 0, MegabytesPerSecond = 0, InFlight = 0,
        };
        var runs = result.Runs.Select(r => r with { Intervals = [Interval(0, 1, 2_000), Interval(1, 1, 2_000), Interval(2, 1, 2_000), Interval(3, 0.05, 10)] }).ToList();

        var chart = ReportCharts.For(ReportSamples.Assemble(plan, runs)).Single(c => c.Name.StartsWith("rate-produce-100b", StringComparison.Ordinal));
        var lines = XDocument.Parse(chart.Svg).Root!.Descendants(Svg + "polyline").Where(p => p.Parent?.Attribute("class")?.Value == "series").ToList();

        // The client's line holds the three full intervals only, all on one height; the offered line is the other one.
        var client = lines.Select(Points).Single(p => p.Count != 2);
        Assert.Equal(3, client.Count);
        Assert.Single(client.Select(p => p.Y).Distinct());
        Assert.Contains("short last interval (the drain) is not drawn", chart.Svg, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Breakdown_ATimeSeriesOnTheCellsTimeAxis_AndAStackedBarPerClient()
    {
        var registry = new ClientRegistry([new KafkaPerf.Clients.InMemory.InMemoryClientFactory(new KafkaPerf.Clients.InMemory.InMemoryClientOptions { ReportsDeliveryLatency = true })]);
        var plan = new KafkaPerf.Plans.BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(2_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(2).Build();
        var result = await new KafkaPerf.Running.BenchmarkRunner(registry, ClusterConnection.None)
            .RunAsync(plan, cancellationToken: TestContext.Current.CancellationToken);
        // The in-memory client says nothing of its own: no breakdown chart, only .NET's collections in the intervals.
        Assert.DoesNotContain(ReportCharts.For(result), c => c.Kind == ChartKind.Breakdown || c.Name.StartsWith("breakdown-time", StringComparison.Ordinal));
        static IntervalRecord Interval(int index, double queueMs, double requestMs, double gcMs) => new()
        {
            Index = index, StartSeconds = index, LengthSeconds = 1, Warmup = false, Sent = 2_000, Acknowledged = 2_000, Consumed = 0, MegabytesPerSecond = 0,
            InFlight = 0, ResponseTime = new IntervalLatency(2_000, 9_000, 20_000, 30_000, 40_000),
            Breakdown = new IntervalBreakdown { QueueMs = queueMs, RequestMs = requestMs, DotnetGcPauseMs = gcMs, RuntimeGcMs = 0 },
        };
        var runs = result.Runs.Select(r => r with { Intervals = [Interval(0, 2, 5, 0), Interval(1, 3, 4, 12), Interval(2, 2, 5, 0)] }).ToList();

        var charts = ReportCharts.For(ReportSamples.Assemble(plan, runs));
        var html = new StringWriter();
        DefaultExporters.Html.Export(ReportSamples.Assemble(plan, runs), html);

        var series = charts.Single(c => c.Name.StartsWith("breakdown-time-produce-100b", StringComparison.Ordinal));
        Assert.Equal(ChartKind.TimeSeries, series.Kind);
        var svg = XDocument.Parse(series.Svg).Root!;
        var lines = svg.Descendants(Svg + "polyline").Where(p => p.Parent?.Attribute("class")?.Value == "series").ToList();
        // Three lines for the client: network + broker, queue and collections (a producer has no fetch line).
        Assert.Equal(3, lines.Count);
        Assert.Contains("inmemory network + broker", series.Svg, StringComparison.Ordinal);
        var bars = Assert.Single(charts, c => c.Kind == ChartKind.Breakdown);
        Assert.Contains("inmemory", bars.Svg, StringComparison.Ordinal);
        Assert.NotNull(XDocument.Parse(bars.Svg).Root);
        Assert.DoesNotContain("NaN", bars.Svg, StringComparison.Ordinal);
        Assert.Contains("<a href=\"#breakdown\">Where the time went</a>", html.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task For_TwoRates_OneLatencyChartPerRateNamedForWhatItMeasures()
    {
        var registry = new ClientRegistry([new KafkaPerf.Clients.InMemory.InMemoryClientFactory(new KafkaPerf.Clients.InMemory.InMemoryClientOptions { ReportsDeliveryLatency = true })]);
        var plan = new KafkaPerf.Plans.BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(1_000, 2_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(1).Build();
        var result = await new KafkaPerf.Running.BenchmarkRunner(registry, ClusterConnection.None)
            .RunAsync(plan, cancellationToken: TestContext.Current.CancellationToken);

        var charts = ReportCharts.For(result);
        var latency = charts.Where(c => c.Kind == ChartKind.Latency).ToList();

        // Each rate has its own percentile chart (the same name twice overwrote one .svg with the other), and at a rate
        // the latency is the response time, from when each record was due, not from its send.
        Assert.Equal(charts.Count, charts.Select(c => c.Name).Distinct().Count());
        Assert.Equal(["latency-produce-100b-1000rps", "latency-produce-100b-2000rps"], latency.Select(c => c.Name));
        Assert.All(latency, c => Assert.StartsWith("Produce response time (due → ack), 100 B payloads at ", c.Title, StringComparison.Ordinal));
    }

    [Fact]
    public void For_RealisticResult_ThroughputRatioAndLatencyChartsUnderUniqueNames()
    {
        var charts = ReportCharts.For(ReportSamples.Realistic());

        Assert.Equal(
            ["throughput-produce", "throughput-consume", "throughput-roundtrip", "ratios",
             "latency-produce-100b", "latency-produce-1000b", "latency-produce-10000b",
             "latency-roundtrip-100b", "latency-roundtrip-1000b", "latency-roundtrip-10000b"],
            charts.Select(c => c.Name));
        Assert.Equal(charts.Count, charts.Select(c => c.Name).Distinct().Count());
    }

    [Fact]
    public void For_RealisticResult_EverySvgIsWellFormedWithTitleAxisUnitsAndNoNaN()
    {
        foreach (var chart in ReportCharts.For(ReportSamples.Realistic()))
        {
            var svg = XDocument.Parse(chart.Svg).Root!;

            Assert.Equal(Svg + "svg", svg.Name);
            Assert.Equal(chart.Title, svg.Element(Svg + "title")?.Value);
            Assert.Equal(chart.Title, Assert.Single(Texts(svg, "chart-title")));
            Assert.DoesNotContain("NaN", chart.Svg, StringComparison.Ordinal);
            Assert.DoesNotContain("Infinity", chart.Svg, StringComparison.Ordinal);
            if (chart.Kind == ChartKind.Ratio) continue;
            var x = Assert.Single(Texts(svg, "x-label"));
            var y = Assert.Single(Texts(svg, "y-label"));
            if (chart.Kind == ChartKind.Throughput)
            {
                Assert.Equal("payload size (bytes, log scale)", x);
                Assert.StartsWith("throughput (messages/s", y, StringComparison.Ordinal);
            }
            else
            {
                Assert.Equal("percentile (log scale of 1/(1 − p))", x);
                Assert.Matches(@"^latency \((ms|µs)(, log scale)?\)$", y);
            }
        }
    }

    [Fact]
    public void For_RealisticResult_OneLegendEntryPerClientInEveryLineChart()
    {
        foreach (var chart in ReportCharts.For(ReportSamples.Realistic()).Where(c => c.Kind != ChartKind.Ratio))
        {
            var legend = Texts(XDocument.Parse(chart.Svg).Root!, "legend-entry");

            Assert.Equal(3, legend.Count);
            Assert.StartsWith("confluent", legend[0], StringComparison.Ordinal);
            Assert.StartsWith("java", legend[1], StringComparison.Ordinal);
            Assert.StartsWith("java-batched", legend[2], StringComparison.Ordinal);
        }
    }

    [Fact]
    public void ThroughputChart_ThreeSizes_ByteUnitTicksThatDoNotOverlap()
    {
        var chart = ReportCharts.For(ReportSamples.Realistic()).Single(c => c.Name == "throughput-produce");
        var svg = XDocument.Parse(chart.Svg).Root!;

        var xTicks = Ticks(svg, "x-ticks");
        var yTicks = Ticks(svg, "y-ticks");

        Assert.Equal(["100 B", "1 KB", "10 KB"], xTicks.Select(t => t.Label));
        Assert.InRange(yTicks.Count, 3, 12);
        Assert.All(yTicks, t => Assert.Matches(@"^\d+(\.\d+)?[kM]?$", t.Label));
        // Rates from 25k to 520k msg/s span more than a decade: the y axis is logarithmic, and its labels grow upwards.
        Assert.Contains("log scale", Assert.Single(Texts(svg, "y-label")), StringComparison.Ordinal);
        var values = yTicks.OrderByDescending(t => t.Position).Select(t => ParseCount(t.Label)).ToList();
        Assert.Equal(values.Order(), values);
        for (int i = 1; i < xTicks.Count; i++)
            Assert.True(xTicks[i].Position - xTicks[i - 1].Position > 60, $"x ticks {xTicks[i - 1].Label} and {xTicks[i].Label} overlap");
        var ys = yTicks.Select(t => t.Position).Order().ToList();
        for (int i = 1; i < ys.Count; i++) Assert.True(ys[i] - ys[i - 1] >= 16, "y ticks overlap");
    }

    [Fact]
    public void ThroughputChart_WarmupsAndFailedRunsLeftOut()
    {
        var result = ReportSamples.Realistic();
        var chart = ReportCharts.For(result).Single(c => c.Name == "throughput-produce");
        var svg = XDocument.Parse(chart.Svg).Root!;

        // Warm-ups ran ten times faster than any measured run: had one been drawn, the axis would reach past 2M msg/s.
        double top = Ticks(svg, "y-ticks").Max(t => ParseCount(t.Label));
        double measuredMax = result.Runs.Where(r => !r.IsWarmup && r.Succeeded && r.Scenario == ScenarioKind.Produce).Max(r => r.MessagesPerSecond);
        Assert.InRange(top, measuredMax / 3, measuredMax * 2);
        Assert.Contains("failed run", Assert.Single(Texts(svg, "chart-note")), StringComparison.Ordinal);
    }

    [Fact]
    public void LatencyChart_HdrPercentileTicksAndAClientWithoutLatency()
    {
        var chart = ReportCharts.For(ReportSamples.Realistic()).Single(c => c.Name == "latency-roundtrip-1000b");
        var svg = XDocument.Parse(chart.Svg).Root!;

        var xTicks = Ticks(svg, "x-ticks").Select(t => t.Label).ToList();

        // 5 runs × 10 000 latencies each: the curve reaches 1/(1 − p) = 50 000, so the axis runs to 99.999 %. The left
        // end, 0 % (the minimum), is labelled only when the label has room next to 50 %.
        Assert.Equal(["50 %", "90 %", "99 %", "99.9 %", "99.99 %", "99.999 %"], xTicks.Where(t => t != "0 %"));
        Assert.Equal("latency (ms)", Assert.Single(Texts(svg, "y-label")).Replace(", log scale", string.Empty, StringComparison.Ordinal));
        Assert.Equal("java-batched (no latency measured)", Texts(svg, "legend-entry")[2]);
        Assert.Equal(2, svg.Descendants(Svg + "polyline").Count(p => p.Parent?.Attribute("class")?.Value == "series"));
    }

    [Fact]
    public void LatencyChart_CurveFollowsTheMergedHistogram()
    {
        var result = ReportSamples.Realistic();
        var chart = ReportCharts.For(result).Single(c => c.Name == "latency-produce-100b");
        var svg = XDocument.Parse(chart.Svg).Root!;
        var confluentMedianMs = result.Cells.Single(c => c.Client == "confluent" && c.Scenario == ScenarioKind.Produce && c.PayloadBytes == 100).Latency!.P50Micros / 1_000;

        // Read the y of the confluent curve at the 50 % tick back through the y ticks.
        var x50 = Ticks(svg, "x-ticks").Single(t => t.Label == "50 %").Position;
        var curve = Points(svg.Descendants(Svg + "polyline").First(p => p.Parent?.Attribute("class")?.Value == "series"));
        var atMedian = curve.MinBy(p => Math.Abs(p.X - x50));
        var yTicks = Ticks(svg, "y-ticks");
        bool log = Assert.Single(Texts(svg, "y-label")).Contains("log", StringComparison.Ordinal);
        var (a, b) = (yTicks[0], yTicks[^1]);
        double Value(string label) => double.Parse(label, CultureInfo.InvariantCulture);
        double fraction = (atMedian.Y - a.Position) / (b.Position - a.Position);
        double read = log
            ? Math.Pow(10, Math.Log10(Value(a.Label)) + (fraction * (Math.Log10(Value(b.Label)) - Math.Log10(Value(a.Label)))))
            : Value(a.Label) + (fraction * (Value(b.Label) - Value(a.Label)));

        Assert.InRange(read, confluentMedianMs * 0.93, confluentMedianMs * 1.07);
    }

    [Fact]
    public void RatioHeatMap_PrintsEachRatioAndSaysWhatAboveOneMeans()
    {
        var result = ReportSamples.Realistic();
        var chart = ReportCharts.For(result).Single(c => c.Kind == ChartKind.Ratio);
        var svg = XDocument.Parse(chart.Svg).Root!;

        var ratios = Texts(svg, "ratio");
        var rows = Texts(svg, "row-label");

        Assert.Equal(["java", "java-batched"], Texts(svg, "column-label"));
        Assert.Equal(9, rows.Count);
        Assert.Equal("produce · 100 B", rows[0]);
        Assert.Equal(18, ratios.Count);
        Assert.All(ratios, r => Assert.Matches(@"^\d+\.\d\d×$", r));
        var java100 = result.Comparisons.Single(c => c.Candidate == "java" && c.Scenario == ScenarioKind.Produce && c.PayloadBytes == 100);
        Assert.Equal(java100.MessagesPerSecond.ShiftRatio.ToString("0.00", CultureInfo.InvariantCulture) + "×", ratios[0]);
        Assert.Equal("0.80×", ratios[0]);
        Assert.Equal("slower", Texts(svg, "verdict")[0]);
        Assert.Contains("Above 1 (blue) the candidate is faster than confluent", string.Join(' ', Texts(svg, "legend-text")), StringComparison.Ordinal);
        Assert.Equal(9, svg.Descendants(Svg + "g").Single(g => g.Attribute("class")?.Value == "legend").Elements(Svg + "rect").Count());
    }

    [Fact]
    public void For_SweptCountsAndSettings_ChartPerCombinationNamedByBothAndHeatMapRowsSayWhich()
    {
        var result = ReportSamples.Realistic(repeat: 2, clients: ["confluent", "java"], sizes: [100], messages: [1_000, 5_000],
            configure: b => b.Acks(AcksMode.Leader, AcksMode.All));

        var charts = ReportCharts.For(result);

        Assert.Equal(
            ["throughput-produce-1000msgs-acks-1", "throughput-produce-5000msgs-acks-1", "throughput-produce-1000msgs-acks-all", "throughput-produce-5000msgs-acks-all"],
            charts.Where(c => c.Name.StartsWith("throughput-produce", StringComparison.Ordinal)).Select(c => c.Name));
        Assert.Contains(charts, c => c.Name == "latency-roundtrip-100b-5000msgs-acks-all");
        Assert.Equal(charts.Count, charts.Select(c => c.Name).Distinct().Count());
        var rows = Texts(XDocument.Parse(charts.Single(c => c.Kind == ChartKind.Ratio).Svg).Root!, "row-label");
        Assert.Equal(3 * 2 * 2, rows.Count);
        Assert.Equal("produce · 100 B · 1 000 msgs · acks=1", rows[0]);
        Assert.All(charts, c => Assert.Matches("^[a-z][a-z0-9-]*$", c.Name));
    }

    [Fact]
    public void For_ReferenceTool_MarkedAndOnlyWhereItRan()
    {
        var result = ReportSamples.Realistic(repeat: 3, clients: ["confluent", "java"], sizes: [100, 1_000], configure: b => b.References("kcat"));
        Assert.Contains("kcat", result.Plan.Clients);

        var charts = ReportCharts.For(result).ToDictionary(c => c.Name, c => XDocument.Parse(c.Svg).Root!);

        Assert.Equal(["confluent", "java", "kcat (reference)"], Texts(charts["throughput-produce"], "legend-entry"));
        Assert.Equal(["confluent", "java"], Texts(charts["throughput-roundtrip"], "legend-entry"));
        Assert.Equal("kcat (reference tool, no latency)", Texts(charts["latency-produce-100b"], "legend-entry")[2]);
        Assert.Equal(2, Texts(charts["latency-roundtrip-100b"], "legend-entry").Count);
        var heatMap = charts["ratios"];
        Assert.Equal(["java", "kcat (reference)"], Texts(heatMap, "column-label"));
        Assert.Equal(["not run here", "not run here"], Texts(heatMap, "ratio-missing"));
        Assert.Equal(3 * 2 * 2 - 2, Texts(heatMap, "ratio").Count);
    }

    [Fact]
    public void For_LongSettingsLabel_SubtitleWrapsWithinTheChart()
    {
        // The seed profile's label runs to about 130 characters.
        foreach (var chart in ReportCharts.For(ExporterTests.FixedResult()))
        {
            var svg = XDocument.Parse(chart.Svg).Root!;
            double width = double.Parse(svg.Attribute("width")!.Value, CultureInfo.InvariantCulture);

            var subtitle = Texts(svg, "chart-subtitle");

            Assert.InRange(width, 700, 800);
            Assert.True(subtitle.Count >= 2, chart.Name);
            Assert.Contains("fetch.min.bytes=100000", string.Join(' ', subtitle), StringComparison.Ordinal);
            Assert.All(subtitle, line => Assert.True(ChartTheme.TextWidth(line, ChartTheme.SubtitleSize) <= width - 32, $"'{line}' is wider than {chart.Name}"));
            Assert.All(Texts(svg, "chart-note").Concat(Texts(svg, "legend-text")),
                line => Assert.True(ChartTheme.TextWidth(line, ChartTheme.NoteSize) <= width - 32, $"'{line}' is wider than {chart.Name}"));
        }
    }

    private static List<string> Texts(XElement svg, string cssClass) =>
        [.. svg.Descendants(Svg + "text").Where(t => (t.Attribute("class")?.Value ?? string.Empty).Split(' ').Contains(cssClass)).Select(t => t.Value)];

    /// <summary>The tick labels of an axis group with their positions (x for the x axis, y for the y axis).</summary>
    private static List<(string Label, double Position)> Ticks(XElement svg, string group)
    {
        var g = svg.Descendants(Svg + "g").Single(e => e.Attribute("class")?.Value == group);
        // Each label follows its grid line and tick mark; the tick mark gives the exact position.
        var axis = group == "x-ticks" ? "x1" : "y1";
        return [.. g.Elements(Svg + "text").Select(t => (t.Value, double.Parse(t.ElementsBeforeSelf(Svg + "line").Last().Attribute(axis)!.Value, CultureInfo.InvariantCulture)))];
    }

    private static List<(double X, double Y)> Points(XElement polyline) =>
        [.. polyline.Attribute("points")!.Value.Split(' ').Select(p => p.Split(','))
            .Select(p => (double.Parse(p[0], CultureInfo.InvariantCulture), double.Parse(p[1], CultureInfo.InvariantCulture)))];

    private static double ParseCount(string label)
    {
        double factor = label[^1] switch { 'k' => 1e3, 'M' => 1e6, 'G' => 1e9, _ => 1 };
        return double.Parse(factor == 1 ? label : label[..^1], CultureInfo.InvariantCulture) * factor;
    }
}
