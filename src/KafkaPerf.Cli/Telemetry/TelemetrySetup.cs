using KafkaPerf.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace KafkaPerf.Cli.Telemetry;

/// <summary>
/// <c>--otel</c> through the host's <c>AddOpenTelemetry()</c>: the meter and tracer providers are the host's, for the
/// <c>KafkaPerf</c> meter and activity source, with OTLP (configured by the standard <c>OTEL_EXPORTER_OTLP_*</c>
/// variables) and/or one line per metric and per span on standard error. Which exporters a provider gets is decided when
/// <c>run</c> has read its options, so the providers are built then, and only when <c>--otel</c> names a target: with
/// none, nothing listens and KafkaPerf records nothing.
/// </summary>
internal static class TelemetrySetup
{
    /// <summary>How often metrics are exported, and spans sent in batches: often enough that a 10-second run shows up while it runs.</summary>
    public static readonly TimeSpan ExportInterval = TimeSpan.FromSeconds(2);

    /// <summary>Registers the providers on the host (built later, by <see cref="Start"/>).</summary>
    /// <param name="services">The host's services.</param>
    public static void AddKafkaPerfTelemetry(this IServiceCollection services)
    {
        services.AddSingleton<TelemetrySelection>();
        services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService("kafkaperf", serviceVersion: typeof(TelemetrySetup).Assembly.GetName().Version?.ToString()))
            .WithMetrics(metrics => metrics.AddMeter(KafkaPerfTelemetry.Name))
            .WithTracing(tracing => tracing.AddSource(KafkaPerfTelemetry.Name));
        // Deferred: these run when a provider is built, after run has chosen its targets.
        services.ConfigureOpenTelemetryMeterProvider((provider, builder) =>
        {
            var selection = provider.GetRequiredService<TelemetrySelection>();
            int interval = (int)ExportInterval.TotalMilliseconds;
            // The exporters are made here rather than with AddOtlpExporter, which would register services too late.
            // OtlpExporterOptions reads OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL, _HEADERS and _TIMEOUT, as every SDK does.
            if (selection.Targets.HasFlag(OtelTargets.Otlp))
                builder.AddReader(new PeriodicExportingMetricReader(new OtlpMetricExporter(new OtlpExporterOptions()), interval));
            if (selection.Targets.HasFlag(OtelTargets.Console))
                builder.AddReader(new PeriodicExportingMetricReader(new StderrMetricExporter(selection.Log), interval));
        });
        services.ConfigureOpenTelemetryTracerProvider((provider, builder) =>
        {
            var selection = provider.GetRequiredService<TelemetrySelection>();
            if (selection.Targets.HasFlag(OtelTargets.Otlp))
                builder.AddProcessor(new BatchActivityExportProcessor(new OtlpTraceExporter(new OtlpExporterOptions()), scheduledDelayMilliseconds: (int)ExportInterval.TotalMilliseconds));
            if (selection.Targets.HasFlag(OtelTargets.Console))
                builder.AddProcessor(new SimpleActivityExportProcessor(new StderrSpanExporter(selection.Log)));
        });
    }

    /// <summary>Builds the host's providers with the exporters <paramref name="targets"/> names; nothing for
    /// <see cref="OtelTargets.None"/>.</summary>
    /// <param name="services">The host's services.</param>
    /// <param name="targets">Where to export.</param>
    /// <param name="log">Standard error: the console exporters' lines and the one-line export warning.</param>
    /// <returns>What to dispose when the run ends: it exports what is pending and stops the exporters.</returns>
    public static IDisposable Start(IServiceProvider services, OtelTargets targets, TextWriter log)
    {
        if (targets == OtelTargets.None) return new Session(null, null, null);
        var selection = services.GetRequiredService<TelemetrySelection>();
        selection.Targets = targets;
        selection.Log = log;
        // The OTLP exporter reports failures only through its EventSource: listen before anything is exported.
        var listener = targets.HasFlag(OtelTargets.Otlp) ? new OtlpFailureListener(log, new OtlpExporterOptions().Endpoint.ToString()) : null;
        return new Session(services.GetRequiredService<MeterProvider>(), services.GetRequiredService<TracerProvider>(), listener);
    }

    /// <summary>Which targets the providers export to, and where their console lines go; set by <c>run</c> before they are built.</summary>
    internal sealed class TelemetrySelection
    {
        public OtelTargets Targets { get; set; }

        public TextWriter Log { get; set; } = TextWriter.Null;
    }

    private sealed class Session(MeterProvider? meters, TracerProvider? tracer, OtlpFailureListener? listener) : IDisposable
    {
        public void Dispose()
        {
            // Disposing shuts the exporters down after a final export; the host disposes them again at exit, harmlessly.
            tracer?.Dispose();
            meters?.Dispose();
            listener?.Dispose();
        }
    }
}
