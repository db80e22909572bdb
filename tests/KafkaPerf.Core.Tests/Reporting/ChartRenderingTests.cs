using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.History;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>
/// Every chart the project draws, written to disk as the HTML exporter writes it, then rendered in headless Chromium and
/// read back from the browser's own geometry: a line never has a segment across an interval (or a payload size, or a
/// probe) without a figure; each client has its own fault window where its own fault and election were; an interval
/// in which a client acknowledged nothing is marked with its count of waiting records; no text runs out of its chart;
/// and no file is written for what never ran (Ctrl+C, a rate search's probes).
/// </summary>
/// <remarks>Set KAFKAPERF_REPORT_PREVIEW to a folder to keep the pages and screenshots there for a look.</remarks>
public partial class ChartRenderingTests
{
    // Reads every chart of the page once it is parsed: runs in Chromium, and leaves its findings as JSON in the DOM that
    // --dump-dom prints. Positions are the browser's (SVG DOM and getBBox), not the attributes' text.
    private const string Reader = """
        <script>
        const xs = p => Array.from({ length: p.points.numberOfItems }, (_, i) => p.points.getItem(i).x);
        const box = e => { const b = e.getBBox(); return { x: b.x, width: b.width }; };
        const charts = [];
        for (const figure of document.querySelectorAll('figure')) {
          const svg = figure.querySelector('svg');
          const width = svg.width.baseVal.value;
          const plot = svg.querySelector('rect.plot');
          charts.push({
            sample: figure.dataset.sample, file: figure.dataset.file, width, height: svg.height.baseVal.value,
            painted: svg.getBBox().width,
            plot: plot ? { left: plot.x.baseVal.value, width: plot.width.baseVal.value, min: +plot.dataset.xMin, max: +plot.dataset.xMax, log: plot.dataset.xLog === 'true' } : null,
            series: [...svg.querySelectorAll('g.series')].map(g => ({ name: g.dataset.series, segments: [...g.querySelectorAll('polyline')].map(xs) })),
            windows: [...svg.querySelectorAll('rect.fault-window')].map(r => ({ lane: r.dataset.lane, from: +r.dataset.from, to: +r.dataset.to, ...box(r), fill: getComputedStyle(r).fill })),
            outages: [...svg.querySelectorAll('rect.outage')].map(r => ({ lane: r.dataset.lane, from: +r.dataset.from, to: +r.dataset.to, waiting: +r.dataset.waiting, ...box(r) })),
            lanes: [...svg.querySelectorAll('text.lane-label')].map(t => t.textContent),
            marks: [...svg.querySelectorAll('g.marks line')].map(l => ({ kind: l.getAttribute('class'), x: +l.dataset.x })),
            keys: [...svg.querySelectorAll('text.legend-key')].map(t => t.textContent),
            endLabels: [...svg.querySelectorAll('text.end-label')].map(t => t.dataset.series),
            absent: [...svg.querySelectorAll('text.absent')].map(t => t.textContent),
            overflowing: [...svg.querySelectorAll('text')].filter(t => !t.hasAttribute('transform'))
              .filter(t => { const b = t.getBBox(); return b.x < -0.5 || b.x + b.width > width + 0.5; }).map(t => t.textContent),
          });
        }
        const out = document.createElement('pre');
        out.id = 'charts';
        out.textContent = JSON.stringify(charts);
        document.body.appendChild(out);
        </script>
        """;

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    [Fact]
    public async Task EveryChartKind_InHeadlessChromium_NoSegmentAcrossAGapAndNoTextOutside()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-charts-");
        try
        {
            var samples = new Dictionary<string, BenchmarkResult>
            {
                ["bursts"] = BurstsWithGaps(),
                ["failover"] = TimeSeriesSamples.Failover(repeat: 2),
                ["search"] = await SearchSampleAsync(),
            };
            var read = await RenderAsync(folder.FullName, samples);

            // Every kind of chart the project draws is among them.
            var kinds = samples.Values.SelectMany(ReportCharts.For).Select(c => c.Kind).Distinct().Order().ToList();
            Assert.Equal(Enum.GetValues<ChartKind>().Order(), kinds);
            Assert.Equal(samples.Values.Sum(r => ReportCharts.For(r).Count), read.Count);
            foreach (var chart in read)
            {
                Assert.True(chart.Painted > 100, $"{chart.File} was not painted");
                Assert.True(chart.Overflowing.Count == 0, $"{chart.File}: text outside the chart: {string.Join(" | ", chart.Overflowing)}");
                if (chart.Plot is null) continue;
                foreach (var series in chart.Series)
                {
                    var grid = Grid(samples[chart.Sample], chart.File, series.Name);
                    if (grid is null) continue;
                    // Throughput points stand a few pixels beside their size, so that clients' whiskers do not hide each
                    // other: about 5 % on its log axis.
                    double relative = chart.File.Contains("-throughput-", StringComparison.Ordinal) ? 0.08 : 1e-3;
                    double Tolerance(double x) => Math.Max(1e-3, Math.Abs(x) * relative);
                    foreach (var segment in series.Segments)
                    {
                        for (int i = 1; i < segment.Count; i++)
                        {
                            double a = chart.Plot.At(segment[i - 1]), b = chart.Plot.At(segment[i]);
                            var skipped = grid.Where(g => g.X > Math.Min(a, b) + Tolerance(g.X) && g.X < Math.Max(a, b) - Tolerance(g.X)).ToList();
                            Assert.True(skipped.Count == 0, $"{chart.File}, {series.Name}: a segment from {a:0.###} to {b:0.###} crosses {string.Join(", ", skipped.Select(s => s.X.ToString("0.###", CultureInfo.InvariantCulture)))}");
                            Assert.True(grid.Any(g => Math.Abs(g.X - a) <= Tolerance(g.X)) && grid.Any(g => Math.Abs(g.X - b) <= Tolerance(g.X)),
                                $"{chart.File}, {series.Name}: a point at {a:0.###} or {b:0.###} where nothing was measured");
                        }
                    }
                    // A line is drawn only where there are figures: a place without one never lies inside a segment.
                    foreach (var gap in grid.Where(g => !g.HasFigure))
                        Assert.DoesNotContain(series.Segments, s => s.Count > 1 && chart.Plot.At(s.Min()) < gap.X && chart.Plot.At(s.Max()) > gap.X);
                }
            }

            // The breakdown's bars say in one line why a client has none.
            var bars = read.Single(c => c.Sample == "bursts" && c.File.EndsWith("-breakdown.svg", StringComparison.Ordinal));
            Assert.NotEmpty(bars.Absent);
            Assert.All(bars.Absent, text => Assert.StartsWith("no figure: statistics every 1 s, burst 0.", text, StringComparison.Ordinal));
            // java's 1 KB produce failed in every run: its throughput line has no segment across 1 KB (checked above), and
            // the points either side are there.
            var throughput = read.Single(c => c.Sample == "bursts" && c.File.EndsWith("-throughput-produce.svg", StringComparison.Ordinal));
            Assert.Empty(throughput.Series.Single(s => s.Name == "java").Segments);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Failover_InHeadlessChromium_LinesBreakAtTheOutageOutageMarkedAndEachClientsOwnWindow()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-failover-");
        try
        {
            var result = TimeSeriesSamples.Failover(repeat: 2);
            var read = await RenderAsync(folder.FullName, new Dictionary<string, BenchmarkResult> { ["failover"] = result });

            var series = read.Where(c => c.File.Contains("-rate-produce-", StringComparison.Ordinal) || c.File.Contains("-time-produce-", StringComparison.Ordinal)).ToList();
            Assert.Equal(3, series.Count); // rate, latency and breakdown over time
            foreach (var chart in series)
            {
                foreach (var (client, index) in new[] { ("confluent", 0), ("java", 1) })
                {
                    var (fired, newLeader) = TimeSeriesSamples.Faults[client];
                    // One window per client, its own: from its own fault to its own partition's new leader, drawn there.
                    var window = Assert.Single(chart.Windows, w => w.Lane == client);
                    Assert.Equal(fired, window.From, 3);
                    Assert.Equal(newLeader, window.To, 3);
                    Assert.Equal(fired, chart.Plot!.At(window.X), 1);
                    Assert.Equal(newLeader, chart.Plot.At(window.X + window.Width), 1);
                    var (red, _, blue) = Rgb(window.Fill!);
                    Assert.True(index == 0 ? blue > red : red > blue, $"{client}'s window is not in its colour: {window.Fill}");
                    Assert.Contains(chart.Lanes, l => l.StartsWith($"{client}: kill:leader at {fired:0.0} s ({fired - 1:0.0} s into the measured part), new leader at {newLeader:0.0} s", StringComparison.Ordinal));
                    Assert.Contains(chart.Marks, m => m.Kind == "fault-mark" && Math.Abs(m.X - fired) < 1e-6);

                    // An outage block for each interval in which it acknowledged nothing, with the records due and not yet
                    // acknowledged at its end (java's blocked sends included).
                    var acknowledged = TimeSeriesSamples.Acknowledged(client);
                    var expected = Enumerable.Range(0, acknowledged.Length).Where(i => acknowledged[i] == 0)
                        .Select(i => (From: (double)i, Waiting: Math.Min(16_000, (i + 1) * 1_000L) - acknowledged.Take(i + 1).Sum())).ToList();
                    var outages = chart.Outages.Where(o => o.Lane == client).OrderBy(o => o.From).ToList();
                    Assert.Equal(expected.Select(e => e.From), outages.Select(o => Math.Round(o.From, 3)));
                    Assert.Equal(expected.Select(e => e.Waiting), outages.Select(o => (long)o.Waiting));
                    Assert.All(outages, o => Assert.Equal(o.From, chart.Plot.At(o.X), 1));
                }
                Assert.Contains(chart.Marks, m => m.Kind == "warmup-end" && Math.Abs(m.X - 1) < 1e-6);
                Assert.Contains(chart.Keys, k => k.Contains("fault window", StringComparison.Ordinal));
                Assert.Contains(chart.Keys, k => k.StartsWith("Solid block: an interval in which the client acknowledged nothing", StringComparison.Ordinal));
            }

            // The latency lines stop at the outage and start again after it: java's p99 in two pieces, 0-5 s and 14-17 s.
            var latency = series.Single(c => c.File.Contains("-latency-time-", StringComparison.Ordinal));
            var java = latency.Series.Single(s => s.Name == "java p99").Segments.Select(s => (From: latency.Plot!.At(s.Min()), To: latency.Plot.At(s.Max()))).ToList();
            Assert.Equal([(0.5, 5.5), (14.5, 17.45)], java.Select(s => (Math.Round(s.From, 2), Math.Round(s.To, 2))));
            // confluent acknowledged nothing from 6 to 17 s: its p99 stops at 5.5 s, and its last interval is a lone point.
            Assert.Equal(5.5, latency.Plot!.At(latency.Series.Single(s => s.Name == "confluent p99").Segments.Single().Max()), 2);
            // java's queue has no figure at 2 s with records acknowledged: a gap without an outage block.
            var breakdown = series.Single(c => c.File.Contains("-breakdown-time-", StringComparison.Ordinal));
            var queue = breakdown.Series.Single(s => s.Name == "java queue").Segments;
            Assert.Equal(1.5, breakdown.Plot!.At(queue[0].Max()), 2);
            Assert.Equal(3.5, breakdown.Plot.At(queue[1].Min()), 2);
            Assert.DoesNotContain(breakdown.Outages, o => o.Lane == "java" && Math.Abs(o.From - 2) < 0.01);

            // In the screenshot each client's window is painted in its own colour.
            var page = Path.Combine(folder.FullName, "page.html");
            var png = Path.Combine(folder.FullName, "failover.png");
            var (exit, _, errors) = await HeadlessChromium.RunAsync(HeadlessChromium.Find(), folder.FullName, $"--screenshot={png}", "--window-size=800,1900", "--hide-scrollbars", new Uri(page).AbsoluteUri);
            Assert.True(exit == 0 && File.Exists(png), errors);
            Keep(png);
            var (_, _, pixels) = HeadlessChromium.DecodePng(File.ReadAllBytes(png));
            foreach (var window in series[0].Windows)
            {
                int fill = int.Parse(Regex.Replace(window.Fill!, @"rgb\((\d+), (\d+), (\d+)\)", m => string.Concat(m.Groups.Values.Skip(1).Select(g => int.Parse(g.Value, CultureInfo.InvariantCulture).ToString("x2", CultureInfo.InvariantCulture)))), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                Assert.True(pixels.Count(p => HeadlessChromium.Near(p, fill)) > 500, $"{window.Lane}'s window ({window.Fill}) was not painted");
            }
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task FindRate_InHeadlessChromium_OneChartPerCellWithEveryProbeOnIt()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-search-");
        try
        {
            var result = await SearchSampleAsync();
            var probes = result.RateSearches!.Single().Probes;
            var read = await RenderAsync(folder.FullName, new Dictionary<string, BenchmarkResult> { ["search"] = result });

            // One cell: its rate curve and its probes over time, not a rate, latency and breakdown chart per probe.
            Assert.True(probes.Count >= 3, $"{probes.Count} probes");
            Assert.Equal(["report-probes-produce-100b.svg", "report-rate-curve-produce-100b.svg"],
                Directory.GetFiles(Path.Combine(folder.FullName, "search"), "*.svg").Select(Path.GetFileName).Order(StringComparer.Ordinal));
            var chart = read.Single(c => c.File.EndsWith("-probes-produce-100b.svg", StringComparison.Ordinal));
            Assert.Equal(probes.Select(p => $"slow {Count(p.OfferedRate)} p99").Order(StringComparer.Ordinal), chart.Series.Select(s => s.Name).Order(StringComparer.Ordinal));
            Assert.Equal(chart.Series.Select(s => s.Name).Order(StringComparer.Ordinal), chart.EndLabels.Order(StringComparer.Ordinal));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task HistoryTrend_InHeadlessChromium_NoSegmentAcrossAResultWithoutTheClient()
    {
        // The history report's chart (history trend --html): java was not in stored result 3 of this cell, and its runs in
        // result 5 all failed; confluent was in every one.
        var folder = Directory.CreateTempSubdirectory("kafkaperf-trend-");
        try
        {
            static TrendPoint Point(long result, string client, IReadOnlyList<double> runs) => new(result, DateTimeOffset.UnixEpoch.AddDays(result), $"r{result}", null,
                new CellKey(client, ScenarioKind.Produce, 10_000, 100, "defaults", null), runs, null);
            var points = new List<TrendPoint>();
            for (long result = 1; result <= 6; result++)
            {
                points.Add(Point(result, "confluent", [0.10 + (result * 0.01), 0.11 + (result * 0.01), 0.12 + (result * 0.01)]));
                if (result != 3) points.Add(Point(result, "java", result == 5 ? [] : [0.3, 0.31, 0.32]));
            }
            var page = Path.Combine(folder.FullName, "trend.html");
            var html = HistoryReport.Html(points, 10, "trend");
            await File.WriteAllTextAsync(page, html.Replace("</body>", Reader + "</body>", StringComparison.Ordinal).Replace("<svg ", "<figure data-sample=\"history\" data-file=\"trend\"><svg ", StringComparison.Ordinal).Replace("</svg>", "</svg></figure>", StringComparison.Ordinal));

            var (exit, dom, errors) = await HeadlessChromium.RunAsync(HeadlessChromium.Find(), folder.FullName, "--dump-dom", new Uri(page).AbsoluteUri);
            Assert.True(exit == 0, errors);
            var chart = Assert.Single(JsonSerializer.Deserialize<List<ReadChart>>(WebUtility.HtmlDecode(Regex.Match(dom, "<pre id=\"charts\">(.*?)</pre>", RegexOptions.Singleline).Groups[1].Value), Json)!);

            Assert.Empty(chart.Overflowing);
            // Results are numbered 1 to 6 on the axis: java's line is 1-2 and 4 alone (a marker, no segment) and 6 alone.
            var java = chart.Series.Single(s => s.Name == "java").Segments.Select(s => (chart.Plot!.At(s.Min()), chart.Plot.At(s.Max()))).ToList();
            Assert.Equal([(1.0, 2.0)], java.Select(s => (Math.Round(s.Item1, 2), Math.Round(s.Item2, 2))));
            var confluent = Assert.Single(chart.Series.Single(s => s.Name == "confluent").Segments);
            Assert.Equal((1.0, 6.0), (Math.Round(chart.Plot!.At(confluent.Min()), 2), Math.Round(chart.Plot.At(confluent.Max()), 2)));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task For_SearchOfAClientWithoutResponseTimes_NoChartOfTheGoalAlone()
    {
        // A producer without delivery reports measures no response time: its search stops after one probe, and a rate curve
        // would hold the goal's line and nothing else.
        var silent = new InMemoryClientFactory(new InMemoryClientOptions { Name = "silent", ReportsDeliveryLatency = false });
        var template = new BenchmarkPlanBuilder().Clients("silent").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(1_000).Duration(TimeSpan.FromMilliseconds(300)).LoadWarmup(TimeSpan.Zero).Repeat(1).Build();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));

        var result = await RateFinder.RunAsync(template, new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<20ms"), StartRate = 1_000 },
            new BenchmarkRunner(new ClientRegistry([silent]), ClusterConnection.None), ClusterConnection.None, log: null, cancellationToken: timeout.Token);

        Assert.Single(result.RateSearches!.Single().Probes);
        Assert.Empty(ReportCharts.For(result));
    }

    /// <summary>Bursts of confluent and java with a gap and an absent figure: java's 1 KB produce failed in every run (no
    /// throughput there), and confluent's bursts, shorter than librdkafka's 1 s statistics, have no breakdown while java's
    /// have.</summary>
    internal static BenchmarkResult BurstsWithGaps()
    {
        var sample = ReportSamples.Realistic(repeat: 2, clients: ["confluent", "java"]);
        var runs = sample.Runs.Select(r =>
        {
            if (r.Client == "java" && r.Scenario == ScenarioKind.Produce && r.PayloadBytes == 1_000 && !r.IsWarmup)
                return r with { Error = "produce: timed out", ElapsedSeconds = double.NaN, MessagesPerSecond = double.NaN };
            if (r.Scenario == ScenarioKind.Consume) return r;
            return r.Client == "java"
                ? r with { Breakdown = new IntervalBreakdown { QueueMs = 1.5, RequestMs = 2.5, DotnetGcPauseMs = 0 } }
                : r with { Breakdown = new IntervalBreakdown { DotnetGcPauseMs = 0 }, ProducerConfig = new Dictionary<string, string> { ["statistics.interval.ms"] = "1000" } };
        }).ToList();
        return ReportSamples.Assemble(sample.Plan, runs);
    }

    private static async Task<BenchmarkResult> SearchSampleAsync()
    {
        // A client that busy-waits 100 µs per send holds 10 000 records a second at most: a search from 2 000 msg/s probes
        // several rates, some held and some failed, whatever the machine.
        var slow = new InMemoryClientFactory(new InMemoryClientOptions { Name = "slow", SendDelay = TimeSpan.FromMicroseconds(100), ReportsDeliveryLatency = true });
        var template = new BenchmarkPlanBuilder().Clients("slow").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
            .Rates(2_000).Duration(TimeSpan.FromSeconds(2)).LoadWarmup(TimeSpan.FromMilliseconds(500)).Repeat(1).Build();
        var options = new RateSearchOptions { Goals = LatencyGoal.ParseList("p99<300ms"), StartRate = 2_000, MaxRate = 32_000, Precision = 0.25, AchievedTolerance = 0.05 };
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        return await RateFinder.RunAsync(template, options, new BenchmarkRunner(new ClientRegistry([slow]), ClusterConnection.None),
            ClusterConnection.None, log: null, cancellationToken: timeout.Token);
    }

    /// <summary>Writes each sample's report to a folder of its own, puts every chart file it wrote on one page with the
    /// reader, has Chromium load it and returns what the reader found.</summary>
    private static async Task<List<ReadChart>> RenderAsync(string folder, Dictionary<string, BenchmarkResult> samples)
    {
        var page = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
        foreach (var (name, result) in samples)
        {
            var written = DefaultExporters.Html.ExportToFolder(result, Path.Combine(folder, name), "report");
            foreach (var file in written.Where(f => f.EndsWith(".svg", StringComparison.Ordinal)))
                page.Append(CultureInfo.InvariantCulture, $"<figure data-sample=\"{name}\" data-file=\"{Path.GetFileName(file)}\">\n{File.ReadAllText(file)}</figure>\n");
        }
        page.Append(Reader).Append("</body></html>\n");
        var path = Path.Combine(folder, "page.html");
        await File.WriteAllTextAsync(path, page.ToString());
        Keep(path);

        var (exit, dom, errors) = await HeadlessChromium.RunAsync(HeadlessChromium.Find(), folder, "--dump-dom", new Uri(path).AbsoluteUri);
        Assert.True(exit == 0, errors);
        var json = Regex.Match(dom, "<pre id=\"charts\">(.*?)</pre>", RegexOptions.Singleline);
        Assert.True(json.Success, "the reader left nothing in the page: " + errors);
        return JsonSerializer.Deserialize<List<ReadChart>>(WebUtility.HtmlDecode(json.Groups[1].Value), Json)!;
    }

    /// <summary>Where a series has, or lacks, a figure along its chart's x axis: a time series' interval middles (of the
    /// client's, or the probe's, measured runs), a throughput chart's payload sizes, a rate curve's probes; none for a
    /// line that is not a measurement (the offered rate, a goal, a held rate) or a percentile curve (continuous).</summary>
    private static List<(double X, bool HasFigure)>? Grid(BenchmarkResult result, string file, string series)
    {
        if (series == "offered" || series.StartsWith("goal ", StringComparison.Ordinal) || series.Contains(" held ", StringComparison.Ordinal)) return null;
        var measured = result.Runs.Where(r => !r.IsWarmup && r.Succeeded).ToList();
        string client = series.Split(' ')[0];
        if (file.Contains("-throughput-", StringComparison.Ordinal))
        {
            var scenario = Enum.Parse<ScenarioKind>(Regex.Match(file, "-throughput-([a-z]+)").Groups[1].Value, ignoreCase: true);
            return [.. result.Plan.PayloadSizes.Select(size => ((double)size, measured.Any(r => r.Client == client && r.Scenario == scenario && r.PayloadBytes == size)))];
        }
        if (file.Contains("-rate-curve-", StringComparison.Ordinal))
            return [.. result.RateSearches!.Single(s => s.Client == client).Probes.Select(p => (p.OfferedRate, p.ResponseTime is { Count: > 0 }))];
        bool timeSeries = file.Contains("-time-", StringComparison.Ordinal) || file.Contains("-rate-", StringComparison.Ordinal) || file.Contains("-probes-", StringComparison.Ordinal);
        if (!timeSeries) return null;
        var runs = measured.Where(r => r.Client == client && r.Intervals is { Count: > 0 }).ToList();
        if (file.Contains("-probes-", StringComparison.Ordinal)) runs = [.. runs.Where(r => Count(r.OfferedRate!.Value) == series.Split(' ')[1])];
        Func<IntervalRecord, bool> has = series switch
        {
            _ when file.Contains("-latency-time-", StringComparison.Ordinal) || file.Contains("-probes-", StringComparison.Ordinal) => i => i.ResponseTime is not null,
            _ when series.EndsWith(" queue", StringComparison.Ordinal) => i => i.Breakdown?.QueueMs is not null,
            _ when series.EndsWith(" network + broker", StringComparison.Ordinal) => i => i.Breakdown?.RequestMs is not null,
            _ when series.EndsWith(" GC", StringComparison.Ordinal) => i => i.Breakdown is not null,
            _ => i => i.LengthSeconds >= 0.5,
        };
        return [.. runs.SelectMany(r => r.Intervals!).GroupBy(i => i.Index)
            .Select(g => (g.Average(i => i.StartSeconds + (i.LengthSeconds / 2)), g.Any(has)))];
    }

    private static string Count(double rate) => rate switch
    {
        >= 1e3 => (rate / 1e3).ToString(rate / 1e3 >= 100 ? "0" : rate / 1e3 >= 10 ? "0.#" : "0.##", CultureInfo.InvariantCulture) + "k",
        _ => rate.ToString("0", CultureInfo.InvariantCulture),
    };

    private static (int R, int G, int B) Rgb(string css)
    {
        var m = Regex.Match(css, @"rgb\((\d+), (\d+), (\d+)\)");
        Assert.True(m.Success, css);
        return (int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture), int.Parse(m.Groups[2].Value, CultureInfo.InvariantCulture), int.Parse(m.Groups[3].Value, CultureInfo.InvariantCulture));
    }

    private static void Keep(string file)
    {
        if (Environment.GetEnvironmentVariable("KAFKAPERF_REPORT_PREVIEW") is not { Length: > 0 } preview) return;
        Directory.CreateDirectory(preview);
        File.Copy(file, Path.Combine(preview, Path.GetFileName(file)), overwrite: true);
    }

    private sealed record ReadChart(string Sample, string File, double Width, double Height, double Painted, Plot? Plot, List<ReadSeries> Series,
        List<Band> Windows, List<Band> Outages, List<string> Lanes, List<ReadMark> Marks, List<string> Keys, List<string> EndLabels, List<string> Absent, List<string> Overflowing);

    private sealed record Plot(double Left, double Width, double Min, double Max, bool Log)
    {
        /// <summary>The x axis' value at a page position.</summary>
        public double At(double x)
        {
            double fraction = (x - Left) / Width;
            return Log ? Math.Pow(10, Math.Log10(Min) + (fraction * (Math.Log10(Max) - Math.Log10(Min)))) : Min + (fraction * (Max - Min));
        }
    }

    private sealed record ReadSeries(string Name, List<List<double>> Segments);

    private sealed record Band(string Lane, double From, double To, double X, double Width, string? Fill, double Waiting);

    private sealed record ReadMark(string Kind, double X);
}
