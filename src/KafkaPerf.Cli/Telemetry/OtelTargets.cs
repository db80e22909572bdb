using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Cli.Telemetry;

/// <summary>Where <c>--otel</c> sends KafkaPerf's metrics and spans.</summary>
[Flags]
internal enum OtelTargets
{
    /// <summary>Nowhere (the default).</summary>
    None = 0,

    /// <summary>An OpenTelemetry collector over OTLP, configured by the standard <c>OTEL_EXPORTER_OTLP_*</c> variables.</summary>
    Otlp = 1,

    /// <summary>Standard error, one line per instrument and tag set (metrics only).</summary>
    Console = 2,
}

/// <summary>Reads <c>--otel</c> values.</summary>
internal static class OtelTargetsParser
{
    /// <summary>The targets named by the values of a repeatable option, each value a comma list.</summary>
    /// <param name="values">The option's values.</param>
    /// <returns>The targets.</returns>
    /// <exception cref="PlanValidationException">A value is not otlp, console or none.</exception>
    public static OtelTargets Parse(IEnumerable<string>? values)
    {
        var targets = OtelTargets.None;
        foreach (var value in (values ?? []).SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            targets |= value.ToLowerInvariant() switch
            {
                "otlp" => OtelTargets.Otlp,
                "console" => OtelTargets.Console,
                "none" => OtelTargets.None,
                _ => throw new PlanValidationException($"Unknown --otel '{value}': use otlp and/or console."),
            };
        }
        return targets;
    }
}
