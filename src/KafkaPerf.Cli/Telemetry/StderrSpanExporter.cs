using System.Diagnostics;
using System.Globalization;
using System.Text;
using OpenTelemetry;

namespace KafkaPerf.Cli.Telemetry;

/// <summary>
/// <c>--otel console</c>: one whole line per finished span on standard error (its name, duration, outcome and tags),
/// where the progress lines go, never on standard output, which holds the tables.
/// </summary>
/// <remarks>OpenTelemetry's own console exporter writes each span as a block of lines to standard output, where it would
/// mix into the Markdown tables (<c>run &gt; results.md</c>) and tear the live progress bar; see docs/DEPENDENCIES.md.</remarks>
internal sealed class StderrSpanExporter(TextWriter writer) : BaseExporter<Activity>
{
    /// <summary>What starts every line.</summary>
    public const string Prefix = "otel: span ";

    public override ExportResult Export(in Batch<Activity> batch)
    {
        foreach (var activity in batch)
        {
            var line = new StringBuilder(Prefix).Append(activity.DisplayName)
                .Append(CultureInfo.InvariantCulture, $" {activity.Duration.TotalSeconds:0.000} s");
            if (activity.Status != ActivityStatusCode.Unset) line.Append(' ').Append(activity.Status.ToString().ToLowerInvariant());
            line.Append(" {");
            bool first = true;
            foreach (var (key, value) in activity.TagObjects)
            {
                if (!first) line.Append(',');
                first = false;
                line.Append(key.StartsWith("kafkaperf.", StringComparison.Ordinal) ? key["kafkaperf.".Length..] : key)
                    .Append('=').Append(Convert.ToString(value, CultureInfo.InvariantCulture));
            }
            writer.WriteLine(line.Append('}').ToString());
        }
        return ExportResult.Success;
    }
}
