using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;
using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>One formatter per kind of figure and one wording per verdict, whichever table shows them.</summary>
public class ReportFiguresTests
{
    private static readonly CellKey Cell = new("confluent", ScenarioKind.Produce, 10_000, 100, "defaults", null);

    [Fact]
    public void Percent_ARatio_TwoDecimalsAndADashWhenNotMeasured()
    {
        Assert.Equal("125.03", ReportFigures.Percent(1.25031));
        Assert.Equal("-4.50", ReportFigures.Percent(0.955 - 1));
        Assert.Equal("–", ReportFigures.Percent(double.NaN));
        Assert.Equal("–", ReportFigures.Percent(null));
    }

    [Fact]
    public void Verdict_EveryVerdict_OneWordingWithItsSubjectWhenGiven()
    {
        Assert.Equal("knet faster", ReportFigures.Verdict(Verdict.Faster, "knet"));
        Assert.Equal("candidate slower", ReportFigures.Verdict(Verdict.Slower, "candidate"));
        Assert.Equal("slower", ReportFigures.Verdict(Verdict.Slower));
        Assert.Equal("on par", ReportFigures.Verdict(Verdict.OnPar, "knet"));
        Assert.Equal("inconclusive", ReportFigures.Verdict(Verdict.Inconclusive));
    }

    [Fact]
    public void HistoryVerdict_TheGateAndTheTrend_WordItAlike()
    {
        var slower = HistoryGate.Judge(Cell, [1.0, 1.01, 0.99, 1.0], [1.3, 1.31, 1.29]);
        var faster = HistoryGate.Judge(Cell, [1.0, 1.01, 0.99, 1.0], [0.7, 0.71, 0.69]);
        var same = HistoryGate.Judge(Cell, [1.0, 1.01, 0.99, 1.0], [1.0, 1.01, 0.99]);
        var young = HistoryGate.Judge(Cell, [1.0, 1.01], [1.0]);

        Assert.Equal("slower by more than 10 %", HistoryTables.Verdict(slower, 10));
        Assert.Equal("slower", HistoryTables.Verdict(slower, null));
        Assert.Equal("faster", HistoryTables.Verdict(faster, 10));
        Assert.Equal("within its history", HistoryTables.Verdict(same, 10));
        Assert.Equal("not judged (2 of 3 results before it)", HistoryTables.Verdict(young, 10));
    }

    [Fact]
    public void Trend_AsMarkdown_AHeadingPerCellAndARowPerStoredResult()
    {
        var points = new List<TrendPoint>
        {
            new(1, DateTimeOffset.UnixEpoch, "main", "0123456789abcdef", Cell, [0.0213, 0.0215, 0.0211], null),
            new(2, DateTimeOffset.UnixEpoch.AddDays(1), null, null, Cell, [0.03, 0.031, 0.029], HistoryGate.Judge(Cell, [0.02, 0.021, 0.0205], [0.03, 0.031, 0.029])),
        };
        using var writer = new StringWriter { NewLine = "\n" };

        HistoryReport.WriteMarkdown(points, 10, writer);

        var text = writer.ToString();
        Assert.StartsWith("### confluent produce 10000 × 100 B (defaults): elapsed s\n\n| result | started (UTC) | label | commit |", text, StringComparison.Ordinal);
        Assert.Contains("|---:|---|---|---|---:|---:|---:|---:|---:|---|---|\n", text, StringComparison.Ordinal);
        Assert.Contains("| 1 | 1970-01-01 00:00 | main | 0123456789 | 3 | 0.0213 | 0.0211 | 0.0215 | – | – | – |\n", text, StringComparison.Ordinal);
        Assert.Contains("| slower by more than 10 % |\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public void MarkdownTable_IsWhatEveryBlockRendererWritesForIt()
    {
        var table = new ReportTable([ReportColumn.Left("a"), ReportColumn.Right("b")], [["x|y", "1"]]);
        using var alone = new StringWriter { NewLine = "\n" };
        using var blocks = new StringWriter { NewLine = "\n" };

        MarkdownExporter.WriteTable(table, alone);
        MarkdownExporter.WriteBlocks([table], blocks);

        Assert.Equal("| a | b |\n|---|---:|\n| x\\|y | 1 |\n", alone.ToString());
        Assert.Equal(alone + "\n", blocks.ToString());
    }
}
