using System.Net;
using System.Text.RegularExpressions;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.Tables;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>The human formats show one report model (<see cref="ResultTables"/>), each rendering it itself: nothing
/// parses another exporter's output.</summary>
public partial class ReportTablesTests
{
    public static TheoryData<string> Samples => new() { "fixed", "realistic", "single client", "start-up" };

    [Theory]
    [MemberData(nameof(Samples))]
    public void Document_Sample_MarkdownAndHtmlShowItsTablesWithTheSameHeaders(string sample)
    {
        var result = Sample(sample);
        var document = ResultTables.Document(result);
        var modelHeaders = document.Tables.Select(t => t.Columns.Select(c => c.Header).ToList()).ToList();

        var markdown = Export(DefaultExporters.Markdown, result);
        var html = Export(DefaultExporters.Html, result);

        // A Markdown table's header is the line above its alignment row; a pipe escaped in a cell is not a separator.
        var lines = markdown.Split('\n');
        var markdownHeaders = lines.Select((line, i) => (line, i)).Where(x => AlignmentRow().IsMatch(x.line))
            .Select(x => MarkdownCells(lines[x.i - 1])).ToList();
        var htmlHeaders = HtmlHead().Matches(html)
            .Select(m => HtmlHeaderCell().Matches(m.Groups[1].Value).Select(c => WebUtility.HtmlDecode(c.Groups[1].Value)).ToList()).ToList();
        Assert.NotEmpty(modelHeaders);
        Assert.Equal(modelHeaders, markdownHeaders);
        Assert.Equal(modelHeaders, htmlHeaders);
        Assert.Equal(document.Sections.Select(s => s.Title), HtmlSectionTitle().Matches(html).Select(m => WebUtility.HtmlDecode(m.Groups[1].Value)));
        Assert.Equal(document.Sections.Select(s => $"## {s.Title}"), lines.Where(l => l.StartsWith("## ", StringComparison.Ordinal)));
    }

    [Fact]
    public void Export_TextThatLooksLikeMarkdown_HtmlShowsItAsWrittenBecauseNothingParsesMarkdown()
    {
        var result = ExporterTests.FixedResult() with { Warnings = ["set `linger.ms` **explicitly**", "- not a list", "| not | a table |"] };

        var html = Export(DefaultExporters.Html, result);

        Assert.Contains("<ul>\n<li>set `linger.ms` **explicitly**</li>\n<li>- not a list</li>\n<li>| not | a table |</li>\n</ul>\n", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<code>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<strong>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Export_CellWithPipeAngleBracketAndNewline_EachFormatEscapesItsOwnWay()
    {
        var fixedResult = ExporterTests.FixedResult();
        const string error = "broker | said <no> & \"quit\"\nthen closed";
        var result = fixedResult with { Runs = [.. fixedResult.Runs.Select(r => r.Error is null ? r : r with { Error = error })] };

        var markdown = Export(DefaultExporters.Markdown, result);
        var html = Export(DefaultExporters.Html, result);
        var csv = Export(DefaultExporters.Csv, result);

        // Markdown escapes only what would break its table; it is also the console's output, so <, & and quotes stay as written.
        Assert.Contains("| 16 | knet | produce | 1 000 | 1 000 | broker \\| said <no> & \"quit\" then closed |\n", markdown, StringComparison.Ordinal);
        Assert.Contains("<td class=\"right\">1 000</td><td>broker | said &lt;no&gt; &amp; &quot;quit&quot; then closed</td></tr>\n", html, StringComparison.Ordinal);
        Assert.Contains(",\"broker | said <no> & \"\"quit\"\"\nthen closed\"\n17,", csv, StringComparison.Ordinal);
    }

    [Fact]
    public void MarkdownWrite_NoteListParagraphTable_OneBlankLineAfterEachBlockAndEscapedCells()
    {
        var document = new ReportDocument("T <1>",
            [new ReportNote("Stopped early", "a\nb"), new ReportList(["x", "y | z"])],
            [new ReportSection("S", [new ReportParagraph("p"), new ReportTable([ReportColumn.Right("n"), ReportColumn.Left("a|b")], [["1", "c | d\r\ne"], ["2", string.Empty]])])]);
        using var writer = new StringWriter { NewLine = "\n" };

        MarkdownExporter.Write(document, writer);

        Assert.Equal(
            "# T <1>\n\n> **Stopped early**: a b\n\n- x\n- y | z\n\n## S\n\np\n\n| n | a\\|b |\n|---:|---|\n| 1 | c \\| d e |\n| 2 |  |\n\n",
            writer.ToString());
    }

    [Fact]
    public void CsvWriteHeaderAndWriteRow_EveryRun_SameAsTheExport()
    {
        var result = ExporterTests.FixedResult();
        using var appended = new StringWriter { NewLine = "\n" };

        CsvExporter.WriteHeader(appended);
        foreach (var run in result.Runs) CsvExporter.WriteRow(run, appended);

        Assert.Equal(Export(DefaultExporters.Csv, result), appended.ToString());
        Assert.Equal(ResultTables.RunColumns.Count, ResultTables.RunRow(result.Runs[0]).Count);
    }

    [Fact]
    public void ReportTable_RowWithTheWrongNumberOfCells_Refused() =>
        Assert.Throws<ArgumentException>(() => new ReportTable([ReportColumn.Left("a"), ReportColumn.Left("b")], [["1"]]));

    private static BenchmarkResult Sample(string name) => name switch
    {
        "fixed" => ExporterTests.FixedResult(),
        "realistic" => ReportSamples.Realistic(),
        "start-up" => StartUpTests.Sample(),
        _ => ReportSamples.Realistic(repeat: 2, clients: ["confluent"], sizes: [100]),
    };

    private static string Export(IResultExporter exporter, BenchmarkResult result)
    {
        using var writer = new StringWriter { NewLine = "\n" };
        exporter.Export(result, writer);
        return writer.ToString();
    }

    private static List<string> MarkdownCells(string row) =>
        [.. Regex.Split(row.Trim()[1..^1], @"(?<!\\)\|").Select(c => c.Trim().Replace("\\|", "|", StringComparison.Ordinal))];

    [GeneratedRegex(@"^\|(:?-+:?\|)+$")]
    private static partial Regex AlignmentRow();

    [GeneratedRegex("<thead><tr>(.*?)</tr></thead>")]
    private static partial Regex HtmlHead();

    [GeneratedRegex("<th[^>]*>(.*?)</th>")]
    private static partial Regex HtmlHeaderCell();

    [GeneratedRegex("<h3>(.*?)</h3>")]
    private static partial Regex HtmlSectionTitle();
}
