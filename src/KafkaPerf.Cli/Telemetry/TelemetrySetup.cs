using KafkaPerf.Telemetry;
using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace KafkaPerf.Cli.Telemetry;

/// <summary>
/// Turns <c>--otel</c> into OpenTelemetry providers for the <c>KafkaPerf</c> meter and activity source: OTLP (configured
/// by the standard <c>OTEL_EXPORTER_OTLP_*</c> variables) and/or <see cref="StderrMetricExporter"/>. Disposing flushes
/// what is pending and shuts the exporters down, on every way out of a run, Ctrl+C included.
/// </summary>
internal sealed class TelemetrySetup : IDisposable
{
    /// <summary>How often metrics are exported: often enough that a 10-second run shows up while it runs.</summary>
    public static readonly TimeSpan ExportInterval = TimeSpan.FromSeconds(2);

    private readonly MeterProvider? _meters;
    private readonly TracerProvider? _tracer;
    private readonly OtlpFailureListener? _listener;

    private TelemetrySetup(MeterProvider? meters, TracerProvider? tracer, OtlpFailureListener? listener)
    {
        _meters = meters;
        _tracer = tracer;
        _listener = listener;
    }

    /// <summary>Starts the providers; nothing at all for <see cref="OtelTargets.None"/>.</summary>
    /// <param name="targets">Where to export.</param>
    /// <param name="log">Standard error: the console exporter's lines and the one-line export warning.</param>
    /// <returns>What to dispose when the run ends.</returns>
    public static TelemetrySetup Start(OtelTargets targets, TextWriter log)
    {
        if (targets == OtelTargets.None) return new TelemetrySetup(null, null, null);
        var resource = ResourceBuilder.CreateDefault().AddService("kafkaperf", serviceVersion: typeof(TelemetrySetup).Assembly.GetName().Version?.ToString());
        var interval = (int)ExportInterval.TotalMilliseconds;
        var meters = Sdk.CreateMeterProviderBuilder().SetResourceBuilder(resource).AddMeter(KafkaPerfTelemetry.Name);
        TracerProvider? tracer = null;
        OtlpFailureListener? listener = null;
        if (targets.HasFlag(OtelTargets.Otlp))
        {
            // OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL, _HEADERS and _TIMEOUT are read here, as every OpenTelemetry SDK does.
            var options = new OtlpExporterOptions();
            listener = new OtlpFailureListener(log, options.Endpoint.ToString());
            meters.AddReader(new PeriodicExportingMetricReader(new OtlpMetricExporter(options), interval));
            tracer = Sdk.CreateTracerProviderBuilder().SetResourceBuilder(resource).AddSource(KafkaPerfTelemetry.Name)
                .AddProcessor(new BatchActivityExportProcessor(new OtlpTraceExporter(options), scheduledDelayMilliseconds: interval))
                .Build();
        }
        if (targets.HasFlag(OtelTargets.Console))
            meters.AddReader(new PeriodicExportingMetricReader(new StderrMetricExporter(log), interval));
        return new TelemetrySetup(meters.Build(), tracer, listener);
    }

    /// <summary>Exports what is pending and stops the exporters.</summary>
    public void Dispose()
    {
        _tracer?.Dispose();
        _meters?.Dispose();
        _listener?.Dispose();
    }
}
