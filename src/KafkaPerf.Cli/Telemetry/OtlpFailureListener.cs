using System.Diagnostics.Tracing;
using System.Globalization;

namespace KafkaPerf.Cli.Telemetry;

/// <summary>
/// Says once, in one line, that the OTLP exporter could not deliver (an endpoint that is down or wrong), so the user
/// learns it without the run stopping or the screen filling up. The exporter reports its failures only through its
/// EventSource; this listens to that source's warnings and errors.
/// </summary>
internal sealed class OtlpFailureListener(TextWriter writer, string endpoint) : EventListener
{
    private const string SourceName = "OpenTelemetry-Exporter-OpenTelemetryProtocol";
    private int _warned;

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        base.OnEventSourceCreated(eventSource);
        if (eventSource.Name == SourceName) EnableEvents(eventSource, EventLevel.Warning);
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        // An endpoint that is down reports a warning (a transient HTTP error) on every export; other failures are errors.
        if (eventData.Level > EventLevel.Warning || Interlocked.Exchange(ref _warned, 1) != 0) return;
        writer.WriteLine($"kafkaperf: warning: OpenTelemetry export to {endpoint} failed ({Describe(eventData)}); the run goes on without it (said once).");
    }

    private static string Describe(EventWrittenEventArgs e)
    {
        string text;
        try
        {
            text = e.Message is { Length: > 0 } format && e.Payload is { } payload
                ? string.Format(CultureInfo.InvariantCulture, format, [.. payload])
                : e.EventName ?? "unknown error";
        }
        catch (FormatException)
        {
            text = e.EventName ?? "unknown error";
        }
        // An exception's text runs over many lines; its first says what happened.
        var firstLine = text.ReplaceLineEndings("\n").Split('\n')[0].Trim();
        return firstLine.Length <= 300 ? firstLine : firstLine[..300] + "…";
    }
}
