using KafkaPerf.Clusters;
using KafkaPerf.Core.Tests.Clients;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Core.Tests.Running;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Telemetry;

namespace KafkaPerf.Core.Tests.Telemetry;

public class KafkaPerfTelemetryTests
{
    // Other tests run plans at the same time: everything here is told apart by this client's name.
    private const string Client = "telemetry-test";

    [Fact]
    public async Task RunAsync_WithListeners_CountsMatchWhatWasSentAndSpansNestPlanCellRun()
    {
        var measurements = new ConcurrentQueue<(string Instrument, double Value, Dictionary<string, object?> Tags)>();
        using var meters = new MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == KafkaPerfTelemetry.Name) listener.EnableMeasurementEvents(instrument);
            },
        };
        void Note(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var map = new Dictionary<string, object?>(StringComparer.Ordinal);
            foreach (var (key, tagValue) in tags) map[key] = tagValue;
            if (map.GetValueOrDefault(KafkaPerfTelemetry.ClientTag) as string == Client) measurements.Enqueue((instrument.Name, value, map));
        }
        meters.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Note(instrument, value, tags));
        meters.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Note(instrument, value, tags));
        meters.Start();
        var spans = new ConcurrentQueue<Activity>();
        using var tracing = new ActivityListener
        {
            ShouldListenTo = source => source.Name == KafkaPerfTelemetry.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = spans.Enqueue,
        };
        ActivitySource.AddActivityListener(tracing);
        var plan = new BenchmarkPlanBuilder().Clients(Client).Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip)
            .MessageCounts(1_000).PayloadSizes(10, 100).Repeat(2).Build();
        var runner = new BenchmarkRunner(new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions { Name = Client })]), ClusterConnection.None);

        var result = await runner.RunAsync(plan, cancellationToken: TestRunContext.Current);

        Assert.All(result.Runs, r => Assert.True(r.Succeeded, r.Error));
        double Sum(string instrument, string scenario, int size) => measurements
            .Where(m => m.Instrument == instrument && (string?)m.Tags[KafkaPerfTelemetry.ScenarioTag] == scenario && (int?)m.Tags[KafkaPerfTelemetry.PayloadBytesTag] == size)
            .Sum(m => m.Value);
        int Count(string instrument, string scenario) => measurements.Count(m => m.Instrument == instrument && (string?)m.Tags[KafkaPerfTelemetry.ScenarioTag] == scenario);
        foreach (var size in new[] { 10, 100 })
        {
            // Every run sends 1 000 messages: two measured runs and the warm-up per cell.
            Assert.Equal(3 * 1_000, Sum(KafkaPerfTelemetry.MessagesProduced, "produce", size));
            Assert.Equal(3 * 1_000 * size, Sum(KafkaPerfTelemetry.BytesProduced, "produce", size));
            Assert.Equal(3 * 1_000, Sum(KafkaPerfTelemetry.MessagesProduced, "roundtrip", size));
            Assert.Equal(3 * 1_000, Sum(KafkaPerfTelemetry.MessagesConsumed, "roundtrip", size));
            Assert.Equal(3 * 1_000 * size, Sum(KafkaPerfTelemetry.BytesConsumed, "roundtrip", size));
        }
        // Latency: one value per record of the measured runs' histograms, never the warm-up's.
        long measuredLatencies = result.Runs.Where(r => !r.IsWarmup && r.Scenario == ScenarioKind.Roundtrip).Sum(r => r.LatencyHistogram!.TotalCount);
        Assert.Equal(2 * 2 * 1_000, measuredLatencies);
        Assert.Equal(measuredLatencies, Count(KafkaPerfTelemetry.ProduceConsumeLatency, "roundtrip"));
        Assert.Equal(result.Runs.Where(r => !r.IsWarmup && r.Scenario == ScenarioKind.Produce).Sum(r => r.LatencyHistogram?.TotalCount ?? 0),
            Count(KafkaPerfTelemetry.SendAckLatency, "produce"));
        var roundtripMax = result.Runs.Where(r => !r.IsWarmup && r.Scenario == ScenarioKind.Roundtrip).Max(r => HdrHistogram.HistogramExtensions.GetMaxValue(r.LatencyHistogram!)) / 1e6;
        Assert.Equal(roundtripMax, measurements.Where(m => m.Instrument == KafkaPerfTelemetry.ProduceConsumeLatency).Max(m => m.Value), 9);

        var runSpans = spans.Where(s => s.OperationName == "kafkaperf run" && (string?)s.GetTagItem(KafkaPerfTelemetry.ClientTag) == Client).ToList();
        Assert.Equal(result.Runs.Count, runSpans.Count);
        var cellSpans = runSpans.Select(s => s.Parent!).Distinct().ToList();
        Assert.Equal(4, cellSpans.Count);
        Assert.All(cellSpans, c => Assert.Equal("kafkaperf cell", c.OperationName));
        var planSpan = Assert.Single(cellSpans.Select(c => c.Parent!).Distinct());
        Assert.Equal("kafkaperf plan", planSpan.OperationName);
        Assert.Equal(Client, planSpan.GetTagItem("kafkaperf.clients"));
        Assert.True(planSpan.IsStopped);
        foreach (var record in result.Runs)
        {
            var span = Assert.Single(runSpans, s => (string?)s.GetTagItem("kafkaperf.topic") == record.Topic);
            Assert.Equal(record.Scenario.ToString().ToLowerInvariant(), span.GetTagItem(KafkaPerfTelemetry.ScenarioTag));
            Assert.Equal(record.PayloadBytes, span.GetTagItem(KafkaPerfTelemetry.PayloadBytesTag));
            Assert.Equal(record.MessageCount, span.GetTagItem("kafkaperf.messages"));
            Assert.Equal(record.Variant, span.GetTagItem("kafkaperf.variant"));
            Assert.Equal(record.Repetition, span.GetTagItem("kafkaperf.repetition"));
            Assert.Equal(record.IsWarmup, span.GetTagItem("kafkaperf.warmup"));
            Assert.Equal(true, span.GetTagItem("kafkaperf.succeeded"));
            Assert.Equal(record.Scenario.ToString().ToLowerInvariant(), span.Parent!.GetTagItem(KafkaPerfTelemetry.ScenarioTag));
        }
    }

    [Fact]
    public async Task RunAsync_ClusterWarmup_ItsRoundsCountOnTheCounters()
    {
        const string Warming = "telemetry-warmup-test";
        var produced = new ConcurrentQueue<(string Scenario, long Value)>();
        var consumed = new ConcurrentQueue<long>();
        using var meters = new MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == KafkaPerfTelemetry.Name) listener.EnableMeasurementEvents(instrument);
            },
        };
        meters.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var map = new Dictionary<string, object?>(StringComparer.Ordinal);
            foreach (var (key, tagValue) in tags) map[key] = tagValue;
            if (map.GetValueOrDefault(KafkaPerfTelemetry.ClientTag) as string != Warming) return;
            if (instrument.Name == KafkaPerfTelemetry.MessagesProduced) produced.Enqueue(((string)map[KafkaPerfTelemetry.ScenarioTag]!, value));
            if (instrument.Name == KafkaPerfTelemetry.MessagesConsumed) consumed.Enqueue(value);
        });
        meters.Start();
        var plan = new BenchmarkPlanBuilder().Clients(Warming).Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10)
            .Repeat(1).Warmup(false).ClusterWarmup(TimeSpan.FromMilliseconds(200)).Build();
        var runner = new BenchmarkRunner(new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = Warming }) { RequiresBroker = true }]),
            new ClusterConnection("cluster.invalid:9092"));

        var result = await runner.RunAsync(plan, cancellationToken: TestRunContext.Current);

        // Each round produced and consumed 100 000 records of 10 B (a consume run's fill counts as produced).
        int rounds = int.Parse(result.ClusterWarmup![..result.ClusterWarmup!.IndexOf(' ', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(rounds >= 1, result.ClusterWarmup);
        Assert.Equal(rounds * 100_000L, produced.Where(p => p.Scenario == "consume").Sum(p => p.Value));
        Assert.Equal(rounds * 100_000L, consumed.Sum());
        Assert.Equal(100L, produced.Where(p => p.Scenario == "produce").Sum(p => p.Value));
    }

    [Fact]
    public async Task RunAsync_OverrideHoldsAPassword_NoSpanTagCarriesIt()
    {
        const string Secret = "hunter2-telemetry";
        var spans = new ConcurrentQueue<Activity>();
        using var tracing = new ActivityListener
        {
            ShouldListenTo = source => source.Name == KafkaPerfTelemetry.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = spans.Enqueue,
        };
        ActivitySource.AddActivityListener(tracing);
        const string Name = Client + "-secret";
        var plan = new BenchmarkPlanBuilder().Clients(Name).Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10).Repeat(1)
            .Override(Name, "sasl.password", Secret).Build();
        var runner = new BenchmarkRunner(new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions { Name = Name })]), ClusterConnection.None);

        await runner.RunAsync(plan, cancellationToken: TestRunContext.Current);

        var mine = spans.Where(s => (s.GetTagItem("kafkaperf.clients") ?? s.GetTagItem(KafkaPerfTelemetry.ClientTag)) as string == Name).ToList();
        Assert.NotEmpty(mine);
        Assert.All(mine.SelectMany(s => s.TagObjects), tag => Assert.DoesNotContain(Secret, Convert.ToString(tag.Value, System.Globalization.CultureInfo.InvariantCulture) ?? string.Empty, StringComparison.Ordinal));
    }
}
