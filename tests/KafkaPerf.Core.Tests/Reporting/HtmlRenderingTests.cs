using System.Text.RegularExpressions;
using KafkaPerf.Reporting.Charts;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>The HTML report as a browser shows it: Debian's headless Chromium (eng/install-prerequisites.sh --tests installs
/// it) loads the page from disk, dumps its DOM and takes a screenshot.</summary>
/// <remarks>Set KAFKAPERF_REPORT_PREVIEW to a folder to keep the page and the screenshot there for a look.</remarks>
public class HtmlRenderingTests
{
    [Fact]
    public async Task Html_InHeadlessChromium_EveryChartRendered()
    {
        var chromium = HeadlessChromium.Find();
        var folder = Directory.CreateTempSubdirectory("kafkaperf-chromium-");
        try
        {
            var result = ReportSamples.Realistic();
            var charts = ReportCharts.For(result);
            var page = DefaultExporters.Html.ExportToFolder(result, folder.FullName, "report")[0];
            var url = new Uri(page).AbsoluteUri;

            var (dumpExit, dom, dumpErrors) = await HeadlessChromium.RunAsync(chromium, folder.FullName, "--dump-dom", url);
            var png = Path.Combine(folder.FullName, "page.png");
            var (shotExit, _, shotErrors) = await HeadlessChromium.RunAsync(chromium, folder.FullName, $"--screenshot={png}", "--window-size=1280,2400", "--hide-scrollbars", url);
            if (Environment.GetEnvironmentVariable("KAFKAPERF_REPORT_PREVIEW") is { Length: > 0 } preview)
            {
                Directory.CreateDirectory(preview);
                File.Copy(page, Path.Combine(preview, "report.html"), overwrite: true);
                if (File.Exists(png)) File.Copy(png, Path.Combine(preview, "report.png"), overwrite: true);
            }

            Assert.True(dumpExit == 0, dumpErrors);
            Assert.Equal(charts.Count, Regex.Count(dom, "<svg[ >]"));
            foreach (var chart in charts)
                Assert.Contains($"<figure id=\"chart-{chart.Name}\">", dom, StringComparison.Ordinal);
            Assert.Contains("Produce throughput by payload size", dom, StringComparison.Ordinal);

            Assert.True(shotExit == 0 && File.Exists(png), shotErrors);
            var (width, height, pixels) = HeadlessChromium.DecodePng(File.ReadAllBytes(png));
            Assert.Equal((1280, 2400), (width, height));
            Assert.True(pixels.Distinct().Take(100).Count() == 100, "The screenshot has fewer than 100 colours: the page did not render.");
            // The first client's blue (#0072B2) is only in the charts' lines, markers and legends: the SVGs were painted.
            int blue = pixels.Count(p => HeadlessChromium.Near(p, 0x0072B2));
            Assert.True(blue > 500, $"Only {blue} pixels of the first client's colour: the charts were not painted.");
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
