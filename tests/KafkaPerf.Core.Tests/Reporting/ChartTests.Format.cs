using System.Globalization;
using System.Xml.Linq;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>The charts' small parts: colours, units, steps, escaping, legends.</summary>
public partial class ChartTests
{
    [Theory]
    [InlineData(1.0, "#f7f7f7")]
    [InlineData(2.0, "#2166ac")]
    [InlineData(0.5, "#b2182b")]
    [InlineData(100.0, "#2166ac")]
    [InlineData(0.01, "#b2182b")]
    public void RatioHeatMap_ColourScale_DivergesFromWhiteAtOne(double ratio, string colour) =>
        Assert.Equal(colour, RatioHeatMap.ColourOf(ratio));

    [Fact]
    public void For_OneClientOneSize_NoRatioChartAndOneTickOneLegendEntry()
    {
        var result = ReportSamples.Realistic(repeat: 3, clients: ["confluent"], sizes: [1_000]);

        var charts = ReportCharts.For(result);

        Assert.DoesNotContain(charts, c => c.Kind == ChartKind.Ratio);
        var throughput = XDocument.Parse(charts.Single(c => c.Name == "throughput-produce").Svg).Root!;
        Assert.Equal(["1 KB"], Ticks(throughput, "x-ticks").Select(t => t.Label));
        Assert.Equal(["confluent"], Texts(throughput, "legend-entry"));
        Assert.Empty(Texts(throughput, "no-data"));
    }

    [Fact]
    public void For_EveryRunFailed_NoDataTextInsteadOfNaN()
    {
        var sample = ReportSamples.Realistic(repeat: 2, clients: ["confluent", "java"], sizes: [100]);
        var failed = sample.Runs.Select(r => r with
        {
            ElapsedSeconds = r.IsWarmup ? r.ElapsedSeconds : double.NaN,
            MessagesPerSecond = r.IsWarmup ? r.MessagesPerSecond : double.NaN, MegabytesPerSecond = double.NaN, Error = r.IsWarmup ? null : "boom",
        }).ToList();
        var result = ReportSamples.Assemble(sample.Plan, failed);

        var charts = ReportCharts.For(result);

        var throughput = XDocument.Parse(charts.Single(c => c.Name == "throughput-produce").Svg).Root!;
        Assert.Equal("no data: no measured run succeeded", Assert.Single(Texts(throughput, "no-data")));
        Assert.Equal(["confluent (no data)", "java (no data)"], Texts(throughput, "legend-entry"));
        var ratios = XDocument.Parse(charts.Single(c => c.Kind == ChartKind.Ratio).Svg).Root!;
        Assert.Equal(3, Texts(ratios, "ratio-missing").Count);
        Assert.DoesNotContain(charts, c => c.Kind == ChartKind.Latency);
        Assert.All(charts, c => Assert.DoesNotContain("NaN", c.Svg, StringComparison.Ordinal));
    }

    [Fact]
    public void ThroughputChart_NaNPointsAmongGoodOnes_DrawsTheGoodOnes()
    {
        var svg = ThroughputChart.Render("t", "s", [100, 1_000],
            [new XYChart.Series("a", 0, [new(100, double.NaN), new(1_000, 5_000, 4_000, double.NaN)], Markers: true, Whiskers: true)], "n");

        var root = XDocument.Parse(svg).Root!;
        Assert.DoesNotContain("NaN", svg, StringComparison.Ordinal);
        Assert.Empty(Texts(root, "no-data"));
        Assert.Single(root.Descendants(Svg + "circle"), c => c.Parent?.Attribute("class")?.Value == "series");
    }

    [Fact]
    public void RatioHeatMap_NoCandidates_SaysSo()
    {
        var svg = RatioHeatMap.Render("t", "s", "confluent", [], [], "n");

        Assert.Contains("single client", Assert.Single(Texts(XDocument.Parse(svg).Root!, "no-data")), StringComparison.Ordinal);
    }

    [Fact]
    public void For_ResultReadBackFromJson_LatencyCurvesFromThePercentileSummaries()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-charts-");
        try
        {
            var path = Assert.Single(DefaultExporters.Json.ExportToFolder(ReportSamples.Realistic(), folder.FullName, "r"));
            var back = ResultJson.Read(path);
            Assert.All(back.Runs, r => Assert.Null(r.LatencyHistogram));

            var chart = ReportCharts.For(back).Single(c => c.Name == "latency-produce-100b");

            var curves = XDocument.Parse(chart.Svg).Root!.Descendants(Svg + "polyline").Where(p => p.Parent?.Attribute("class")?.Value == "series").ToList();
            Assert.Equal(2, curves.Count);
            Assert.All(curves, c => Assert.Equal(7, Points(c).Count)); // min, p50, p90, p95, p99, p99.9, p99.99
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData(100, "100 B")]
    [InlineData(1_000, "1 KB")]
    [InlineData(1_500, "1.5 KB")]
    [InlineData(10_000, "10 KB")]
    [InlineData(1_000_000, "1 MB")]
    [InlineData(4_096, "4.1 KB")]
    public void Bytes_DecimalUnits(double bytes, string text) => Assert.Equal(text, ChartFormat.Bytes(bytes));

    [Theory]
    [InlineData(0.7, 1)]
    [InlineData(1.1, 2)]
    [InlineData(3, 5)]
    [InlineData(7, 10)]
    [InlineData(2_000, 2_000)]
    public void NiceStep_RoundsUpToOneTwoOrFive(double rough, double step) => Assert.Equal(step, Axis.NiceStep(rough), 9);

    [Fact]
    public void SvgText_Escaped()
    {
        var svg = ThroughputChart.Render("a <b> & \"c\"", "s", [100],
            [new XYChart.Series("x<y", 0, [new(100, 10)], Markers: true, Whiskers: false)], "n");

        var root = XDocument.Parse(svg).Root!;
        Assert.Equal("a <b> & \"c\"", Assert.Single(Texts(root, "chart-title")));
        Assert.Equal("x<y", Assert.Single(Texts(root, "legend-entry")));
    }

    [Fact]
    public void Legend_TwoLinesOfOneClientWithMarkers_TheDashedOneIsDashedInTheLegendToo()
    {
        // find-rate's curve draws a client's p99 solid and its p50 dashed, in its colour and with its markers: the legend
        // must tell them apart as the lines do.
        var svg = ThroughputChart.Render("t", "s", [100, 1_000],
        [
            new XYChart.Series("c p99", 0, [new(100, 10), new(1_000, 20)], Markers: true, Whiskers: false),
            new XYChart.Series("c p50", 0, [new(100, 5), new(1_000, 8)], Markers: true, Whiskers: false, Dash: "3 3"),
        ], "n");

        var legend = XDocument.Parse(svg).Root!.Descendants(Svg + "g").Single(e => e.Attribute("class")?.Value == "legend");
        var swatches = legend.Elements(Svg + "line").Select(l => l.Attribute("stroke-dasharray")?.Value).ToList();
        Assert.Equal([null, "3 3"], swatches);
    }
}
