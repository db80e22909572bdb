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

/// <summary>A report of a plan cut short: charts only of what ran, and a page that says why there is none.</summary>
public partial class ChartRenderingTests
{
    [Fact]
    public async Task Export_CancelledBeforeTheFirstRun_NoChartFileAndThePageSaysWhy()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-cancelled-");
        try
        {
            // A rate plan cancelled before it started (Ctrl+C during the broker's start): it drew a burst-style "no data"
            // throughput chart.
            var registry = new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions { ReportsDeliveryLatency = true })]);
            var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).PayloadSizes(100)
                .Rates(1_000).Duration(TimeSpan.FromMilliseconds(300)).Repeat(1).Build();
            using var cancelled = new CancellationTokenSource();
            await cancelled.CancelAsync();

            var result = await new BenchmarkRunner(registry, ClusterConnection.None).RunAsync(plan, cancellationToken: cancelled.Token);
            var written = DefaultExporters.Html.ExportToFolder(result, folder.FullName, "report");

            Assert.True(result.Cancelled);
            Assert.Empty(ReportCharts.For(result));
            Assert.Equal(["report.html"], written.Select(Path.GetFileName));
            Assert.Empty(Directory.GetFiles(folder.FullName, "*.svg"));
            var html = File.ReadAllText(written[0]);
            Assert.Contains("No charts: the plan was cancelled before any run finished", html, StringComparison.Ordinal);
            Assert.DoesNotContain("<svg", html, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Export_CancelledDuringAScenario_ChartsOnlyForTheScenariosThatRan()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-cancelled-");
        try
        {
            // Ctrl+C as the first consume run starts: produce ran, consume was cut short, roundtrip never started.
            var registry = new ClientRegistry([
                new InMemoryClientFactory(new InMemoryClientOptions { ReportsDeliveryLatency = true }),
                new InMemoryClientFactory(new InMemoryClientOptions { Name = "other", ReportsDeliveryLatency = true })]);
            var plan = new BenchmarkPlanBuilder().Clients("inmemory", "other").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip)
                .MessageCounts(2_000).PayloadSizes(100, 1_000).Repeat(1).Build();
            using var cancel = new CancellationTokenSource();

            var result = await new BenchmarkRunner(registry, ClusterConnection.None).RunAsync(plan, new CancelAt(ScenarioKind.Consume, cancel), cancel.Token);
            DefaultExporters.Html.ExportToFolder(result, folder.FullName, "report");

            Assert.True(result.Cancelled);
            Assert.Contains(result.Runs, r => r.Scenario == ScenarioKind.Consume && r.Error == BenchmarkRunner.CancelledRunError);
            var files = Directory.GetFiles(folder.FullName, "*.svg").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();
            Assert.Equal(["report-latency-produce-1000b.svg", "report-latency-produce-100b.svg", "report-ratios.svg", "report-throughput-produce.svg"], files);
            // The heat-map has rows for the produce cells only.
            var ratios = File.ReadAllText(Path.Combine(folder.FullName, "report-ratios.svg"));
            Assert.Equal(2, Regex.Count(ratios, "class=\"row-label\""));
            Assert.DoesNotContain("consume", ratios, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    /// <summary>Cancels the plan as the first run of a scenario starts.</summary>
    private sealed class CancelAt(ScenarioKind scenario, CancellationTokenSource cancel) : IBenchmarkProgress
    {
        public void OnPlanStarted(BenchmarkPlan plan)
        {
        }

        public void OnRunStarting(RunDescriptor run)
        {
            if (run.Cell.Scenario == scenario) cancel.Cancel();
        }

        public void OnRunCompleted(RunDescriptor run, RunRecord record)
        {
        }

        public void OnWarning(string message)
        {
        }
    }
}
