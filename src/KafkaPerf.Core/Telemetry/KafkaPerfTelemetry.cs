using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Reflection;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Telemetry;

/// <summary>
/// KafkaPerf's OpenTelemetry-compatible instrumentation, all in one place: the <c>KafkaPerf</c> <see cref="Meter"/>
/// (messages and bytes produced and consumed, send→ack and produce→consume latency) and the <c>KafkaPerf</c>
/// <see cref="ActivitySource"/> (a span per plan, per cell and per run, with the parameters as tags).
/// </summary>
/// <remarks>
/// <para>Nothing is recorded per message and nothing inside a timed section: a run's figures are recorded once it has
/// ended, from its own counts and its latency histogram. With no listener (no <c>--otel</c>, no SDK), every call here
/// costs a flag check.</para>
/// <para>Counters count every run's traffic, warm-ups and failed runs included (it reached the broker); the latency
/// histograms take only measured, successful runs, as the statistics do. Tags never carry client overrides (<c>-X</c>),
/// which may hold credentials.</para>
/// </remarks>
public static class KafkaPerfTelemetry
{
    /// <summary>The name of the meter and of the activity source.</summary>
    public const string Name = "KafkaPerf";

    /// <summary>Counter of records produced (sent), unit <c>{message}</c>.</summary>
    public const string MessagesProduced = "kafkaperf.messages.produced";

    /// <summary>Counter of payload bytes produced, unit <c>By</c>.</summary>
    public const string BytesProduced = "kafkaperf.bytes.produced";

    /// <summary>Counter of records consumed (every arrival), unit <c>{message}</c>.</summary>
    public const string MessagesConsumed = "kafkaperf.messages.consumed";

    /// <summary>Counter of payload bytes consumed, unit <c>By</c>.</summary>
    public const string BytesConsumed = "kafkaperf.bytes.consumed";

    /// <summary>Histogram of send→ack latency of produce runs, unit <c>ms</c>.</summary>
    public const string SendAckLatency = "kafkaperf.send_ack.latency";

    /// <summary>Histogram of produce→consume latency of roundtrip runs, unit <c>ms</c>.</summary>
    public const string ProduceConsumeLatency = "kafkaperf.produce_consume.latency";

    /// <summary>Tag of the client name on metrics and spans.</summary>
    public const string ClientTag = "kafkaperf.client";

    /// <summary>Tag of the scenario (produce, consume, roundtrip) on metrics and spans.</summary>
    public const string ScenarioTag = "kafkaperf.scenario";

    /// <summary>Tag of the payload size in bytes on metrics and spans.</summary>
    public const string PayloadBytesTag = "kafkaperf.payload.bytes";

    private static readonly string? Version = typeof(KafkaPerfTelemetry).Assembly
        .GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;

    private static readonly Meter s_meter = new(Name, Version);
    private static readonly Counter<long> s_messagesProduced = s_meter.CreateCounter<long>(MessagesProduced, "{message}", "Records produced by benchmark runs.");
    private static readonly Counter<long> s_bytesProduced = s_meter.CreateCounter<long>(BytesProduced, "By", "Payload bytes produced by benchmark runs.");
    private static readonly Counter<long> s_messagesConsumed = s_meter.CreateCounter<long>(MessagesConsumed, "{message}", "Records consumed by benchmark runs.");
    private static readonly Counter<long> s_bytesConsumed = s_meter.CreateCounter<long>(BytesConsumed, "By", "Payload bytes consumed by benchmark runs.");
    private static readonly Histogram<double> s_sendAck = s_meter.CreateHistogram<double>(SendAckLatency, "ms", "Send→ack latency of measured produce runs.");
    private static readonly Histogram<double> s_produceConsume = s_meter.CreateHistogram<double>(ProduceConsumeLatency, "ms", "Produce→consume latency of measured roundtrip runs.");

    /// <summary>The source of KafkaPerf's spans.</summary>
    public static ActivitySource ActivitySource { get; } = new(Name, Version);

    /// <summary>Starts the span of a plan; <see langword="null"/> when nobody listens.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>The span, which the caller disposes when the plan ends.</returns>
    public static Activity? StartPlan(BenchmarkPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var span = ActivitySource.StartActivity("kafkaperf plan");
        if (span is null) return null;
        span.SetTag("kafkaperf.clients", string.Join(',', plan.Clients));
        span.SetTag("kafkaperf.scenarios", string.Join(',', plan.Scenarios.Select(ScenarioName)));
        span.SetTag("kafkaperf.payload.sizes", string.Join(',', plan.PayloadSizes));
        span.SetTag("kafkaperf.message.counts", string.Join(',', plan.MessageCounts));
        span.SetTag("kafkaperf.variants", string.Join(" | ", plan.SettingsVariants.Select(v => v.Describe())));
        span.SetTag("kafkaperf.payload.kind", plan.Payload.ToString());
        span.SetTag("kafkaperf.repeat", plan.Repeat);
        span.SetTag("kafkaperf.warmup", plan.Warmup);
        span.SetTag("kafkaperf.seed", plan.Seed);
        span.SetTag("kafkaperf.runs.total", plan.TotalRuns);
        return span;
    }

    /// <summary>Starts the span of a cell (a child of the plan's); <see langword="null"/> when nobody listens.</summary>
    /// <param name="cell">The cell.</param>
    /// <returns>The span, which the caller disposes when the cell's runs are done.</returns>
    public static Activity? StartCell(PlanCell cell)
    {
        ArgumentNullException.ThrowIfNull(cell);
        var span = ActivitySource.StartActivity("kafkaperf cell");
        if (span is null) return null;
        span.SetTag(ScenarioTag, ScenarioName(cell.Scenario));
        span.SetTag(PayloadBytesTag, cell.PayloadBytes);
        span.SetTag("kafkaperf.messages", cell.MessageCount);
        span.SetTag("kafkaperf.variant", cell.Variant);
        return span;
    }

    /// <summary>Starts the span of a run (a child of its cell's); <see langword="null"/> when nobody listens.</summary>
    /// <param name="run">The run.</param>
    /// <returns>The span; <see cref="RunCompleted"/> closes it with the outcome.</returns>
    public static Activity? StartRun(RunDescriptor run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var span = ActivitySource.StartActivity("kafkaperf run");
        if (span is null) return null;
        span.SetTag(ClientTag, run.Client);
        span.SetTag(ScenarioTag, ScenarioName(run.Cell.Scenario));
        span.SetTag(PayloadBytesTag, run.Cell.PayloadBytes);
        span.SetTag("kafkaperf.messages", run.Cell.MessageCount);
        span.SetTag("kafkaperf.variant", run.Cell.Variant);
        span.SetTag("kafkaperf.repetition", run.Repetition);
        span.SetTag("kafkaperf.warmup", run.IsWarmup);
        span.SetTag("kafkaperf.topic", run.Topic);
        span.SetTag("kafkaperf.run.sequence", run.Sequence);
        return span;
    }

    /// <summary>Records a finished run: its counts on the counters, its latency histogram on the latency histograms
    /// (measured, successful runs only), and its outcome on its span, which it then ends.</summary>
    /// <param name="span">The run's span from <see cref="StartRun"/>, or <see langword="null"/>.</param>
    /// <param name="record">The run as recorded.</param>
    public static void RunCompleted(Activity? span, RunRecord record)
    {
        ArgumentNullException.ThrowIfNull(record);
        if (span is not null)
        {
            span.SetTag("kafkaperf.succeeded", record.Succeeded);
            if (record.Succeeded)
            {
                span.SetTag("kafkaperf.elapsed.seconds", record.ElapsedSeconds);
                span.SetTag("kafkaperf.messages.per.second", record.MessagesPerSecond);
            }
            else
            {
                span.SetStatus(ActivityStatusCode.Error, record.Error);
            }
            span.Dispose();
        }

        var tags = new TagList
        {
            { ClientTag, record.Client },
            { ScenarioTag, ScenarioName(record.Scenario) },
            { PayloadBytesTag, record.PayloadBytes },
        };
        if (record.Sent > 0)
        {
            s_messagesProduced.Add(record.Sent, tags);
            s_bytesProduced.Add(record.Sent * record.PayloadBytes, tags);
        }
        if (record.Received > 0)
        {
            s_messagesConsumed.Add(record.Received, tags);
            s_bytesConsumed.Add(record.Received * record.PayloadBytes, tags);
        }

        var latency = record.Scenario switch
        {
            ScenarioKind.Produce => s_sendAck,
            ScenarioKind.Roundtrip => s_produceConsume,
            _ => null,
        };
        // The histogram holds nanoseconds; replayed bucket by bucket, only when someone listens.
        if (latency is { Enabled: true } && record is { IsWarmup: false, Succeeded: true, LatencyHistogram: { TotalCount: > 0 } histogram })
        {
            histogram.ForEachRecorded((nanoseconds, count) =>
            {
                double millis = nanoseconds / 1e6;
                for (long i = 0; i < count; i++) latency.Record(millis, tags);
            });
        }
    }

    private static string ScenarioName(ScenarioKind kind) => kind.ToString().ToLowerInvariant();
}
