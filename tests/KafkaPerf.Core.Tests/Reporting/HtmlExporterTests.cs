using System.Text.RegularExpressions;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.Tables;

namespace KafkaPerf.Core.Tests.Reporting;

public class HtmlExporterTests
{
    private const string Stem = "kafkaperf-20261122-100000";

    [Fact]
    public void TryGet_Html_IsTheHtmlExporterAndAmongTheDefaults()
    {
        Assert.True(DefaultExporters.TryGet("HTML", out var exporter));
        Assert.Same(DefaultExporters.Html, exporter);
        Assert.Equal("html", exporter.FileExtension);
        Assert.Contains(DefaultExporters.Html, DefaultExporters.All);
    }

    [Fact]
    public void Export_Realistic_SelfContainedWithNoScriptNorExternalReference()
    {
        var html = Export(ReportSamples.Realistic());

        Assert.StartsWith("<!DOCTYPE html>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("http://", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("https://", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotMatch(new Regex(@"\b(src|href)\s*=\s*""(?!#)", RegexOptions.IgnoreCase), html);
        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<link", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("url(", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("@import", html, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("<style>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Export_Realistic_HoldsEveryChartInline()
    {
        var result = ReportSamples.Realistic();
        var html = Export(result);

        var charts = ReportCharts.For(result);
        Assert.Equal(charts.Count, Regex.Count(html, "<svg "));
        foreach (var chart in charts)
        {
            Assert.Contains($"<figure id=\"chart-{chart.Name}\">", html, StringComparison.Ordinal);
            Assert.Contains(chart.InlineSvg, html, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Export_Realistic_HoldsTheEnvironmentAndTheMarkdownTablesAsHtmlTables()
    {
        var result = ReportSamples.Realistic();
        var html = Export(result);
        using var markdown = new StringWriter { NewLine = "\n" };
        DefaultExporters.Markdown.Export(result, markdown);

        foreach (var fact in new[] { "bench-01", "Debian GNU/Linux 12 (bookworm)", ".NET 10.0.0", "Kafka 4.3.1", "embedded KRaft broker", "2.15.1", "5 measured runs per client and cell" })
            Assert.Contains(fact, html, StringComparison.Ordinal);
        // Every Markdown table is an HTML table: one <table> per header row of the Markdown.
        int markdownTables = Regex.Count(markdown.ToString(), @"^\|[-:|]+\|$", RegexOptions.Multiline);
        Assert.Equal(markdownTables, Regex.Count(html, "<table>"));
        Assert.Contains("<h3>Per-client statistics</h3>", html, StringComparison.Ordinal);
        Assert.Contains("<h3>Produce · defaults — java vs confluent</h3>", html, StringComparison.Ordinal);
        Assert.Contains("<td>produce</td><td>defaults</td><td>confluent</td><td class=\"right\">10 000</td><td class=\"right\">100</td><td class=\"right\">5</td>", html, StringComparison.Ordinal);
        Assert.Contains("<th class=\"right\">p99 µs</th>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("|---", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Export_OneClient_SaysThereIsNothingToCompare()
    {
        var html = Export(ReportSamples.Realistic(repeat: 2, clients: ["confluent"], sizes: [100]));

        Assert.Contains("single client", html, StringComparison.Ordinal);
        Assert.DoesNotContain("chart-ratios", html, StringComparison.Ordinal);
    }

    [Fact]
    public void ExportToFolder_Html_WritesThePageAndOneSvgPerChart()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-html-");
        try
        {
            var result = ReportSamples.Realistic();

            var written = DefaultExporters.Html.ExportToFolder(result, folder.FullName, Stem);

            var names = ReportCharts.For(result).Select(c => $"{Stem}-{c.Name}.svg");
            Assert.Equal([$"{Stem}.html", .. names], written.Select(Path.GetFileName));
            Assert.Equal(written.Order(), folder.GetFiles().Select(f => f.FullName).Order());
            Assert.Equal(ReportCharts.For(result)[0].Svg, File.ReadAllText(written[1]));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void ExportToFolderUnique_SameStemTwice_SecondExportWithItsSvgsGoesToSuffix2AndOverwritesNothing()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-html-");
        try
        {
            var composite = new CompositeExporter(DefaultExporters.All);
            var first = composite.ExportToFolderUnique(ReportSamples.Realistic(), folder.FullName, Stem);
            var before = first.ToDictionary(p => p, File.ReadAllText);

            var second = composite.ExportToFolderUnique(ReportSamples.Realistic(repeat: 3), folder.FullName, Stem);

            var charts = ReportCharts.For(ReportSamples.Realistic()).Select(c => c.Name).ToList();
            Assert.Equal([$"{Stem}.csv", $"{Stem}.json", $"{Stem}.md", $"{Stem}.html", .. charts.Select(c => $"{Stem}-{c}.svg")], first.Select(Path.GetFileName));
            Assert.Equal([$"{Stem}-2.csv", $"{Stem}-2.json", $"{Stem}-2.md", $"{Stem}-2.html", .. charts.Select(c => $"{Stem}-2-{c}.svg")], second.Select(Path.GetFileName));
            Assert.All(before, pair => Assert.Equal(pair.Value, File.ReadAllText(pair.Key)));
            Assert.Equal(first.Count + second.Count, folder.GetFiles().Length);
            Assert.Contains("3 measured runs", File.ReadAllText(second[3]), StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void ExportToFolderUnique_OnlyACompanionNameTaken_WholeExportMovesToTheNextName()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-html-");
        try
        {
            var taken = Path.Combine(folder.FullName, $"{Stem}-ratios.svg");
            File.WriteAllText(taken, "someone else's");

            var written = new CompositeExporter([DefaultExporters.Csv, DefaultExporters.Html]).ExportToFolderUnique(ReportSamples.Realistic(), folder.FullName, Stem);

            Assert.All(written, p => Assert.StartsWith($"{Stem}-2", Path.GetFileName(p), StringComparison.Ordinal));
            Assert.Contains(written, p => Path.GetFileName(p) == $"{Stem}-2-ratios.svg");
            Assert.Equal("someone else's", File.ReadAllText(taken));
            Assert.Equal(written.Count + 1, folder.GetFiles().Length);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void ExportToFolderUnique_FormatNamedTwice_WrittenOnce()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-html-");
        try
        {
            Assert.True(DefaultExporters.TryGet("markdown", out var markdown));

            var written = new CompositeExporter([DefaultExporters.Markdown, markdown]).ExportToFolderUnique(ReportSamples.Realistic(), folder.FullName, Stem);

            Assert.Equal([$"{Stem}.md"], written.Select(Path.GetFileName));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("2")]
    [InlineData("2-throughput")]
    [InlineData("")]
    [InlineData("Ratios")]
    [InlineData("../x")]
    public void CompanionFile_SuffixThatIsNotAWordFirst_Refused(string suffix) =>
        Assert.Throws<ArgumentException>(() => new CompanionFile(suffix, "svg", _ => { }));

    [Fact]
    public void WriteBlocks_NoteListTableParagraph_EscapedTextAndAlignment()
    {
        using var writer = new StringWriter { NewLine = "\n" };
        ReportBlock[] blocks =
        [
            new ReportNote("Cancelled", "x"),
            new ReportList(["a <b>", "c"]),
            new ReportTable([ReportColumn.Left("k"), ReportColumn.Right("v")], [["a | b", "`1`"]]),
            new ReportParagraph("last line"),
        ];

        HtmlExporter.WriteBlocks(writer, blocks);

        Assert.Equal(
            "<blockquote><strong>Cancelled</strong>: x</blockquote>\n<ul>\n<li>a &lt;b&gt;</li>\n<li>c</li>\n</ul>\n"
            + "<div class=\"table\"><table>\n<thead><tr><th>k</th><th class=\"right\">v</th></tr></thead>\n<tbody>\n"
            + "<tr><td>a | b</td><td class=\"right\">`1`</td></tr>\n</tbody></table></div>\n<p>last line</p>\n",
            writer.ToString());
    }

    private static string Export(BenchmarkResult result)
    {
        using var writer = new StringWriter { NewLine = "\n" };
        DefaultExporters.Html.Export(result, writer);
        return writer.ToString();
    }
}
