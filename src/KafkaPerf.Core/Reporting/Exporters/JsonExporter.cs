namespace KafkaPerf.Reporting.Exporters;

/// <summary>Everything in the result, as JSON (schema in docs/results-schema.md).</summary>
public sealed class JsonExporter : ResultExporterBase
{
    /// <inheritdoc />
    public override string Format => "json";

    /// <inheritdoc />
    public override string FileExtension => "json";

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(ResultJson.Write(result));
    }
}
