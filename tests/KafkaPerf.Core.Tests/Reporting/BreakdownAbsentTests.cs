using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Core.Tests.Reporting;

public class BreakdownAbsentTests
{
    [Fact]
    public void Markdown_ClientWithoutABurstBreakdown_OneLineSaysWhy()
    {
        // confluent's bursts (25 ms to 0.7 s) were shorter than librdkafka's 1 s statistics; java's have figures.
        var markdown = new StringWriter();
        DefaultExporters.Markdown.Export(ChartRenderingTests.BurstsWithGaps(), markdown);

        var lines = markdown.ToString().Split('\n');
        var why = Assert.Single(lines, l => l.StartsWith("- confluent, produce · 100 B · burst: ", StringComparison.Ordinal));
        Assert.Equal("- confluent, produce · 100 B · burst: no figure - its statistics come every 1 s (statistics.interval.ms), longer than the burst (0.025 s), and none came with it", why);
        Assert.DoesNotContain(lines, l => l.StartsWith("- java, ", StringComparison.Ordinal));
        Assert.Equal(6, lines.Count(l => l.StartsWith("- confluent, ", StringComparison.Ordinal) && l.Contains(": no figure - ", StringComparison.Ordinal)));
    }
}
