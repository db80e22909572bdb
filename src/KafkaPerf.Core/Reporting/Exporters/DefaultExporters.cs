namespace KafkaPerf.Reporting.Exporters;

/// <summary>The catalogue of exporters.</summary>
public static class DefaultExporters
{
    /// <summary>CSV, one row per run.</summary>
    public static IResultExporter Csv { get; } = new CsvExporter();

    /// <summary>JSON, everything (schema in docs/results-schema.md).</summary>
    public static IResultExporter Json { get; } = new JsonExporter();

    /// <summary>Markdown, the seed-style ratio tables.</summary>
    public static IResultExporter Markdown { get; } = new MarkdownExporter();

    /// <summary>HTML, a self-contained report with charts (also written as .svg files beside it) and the Markdown tables.</summary>
    public static IResultExporter Html { get; } = new HtmlExporter();

    /// <summary>Every exporter.</summary>
    public static IReadOnlyList<IResultExporter> All { get; } = [Csv, Json, Markdown, Html];

    /// <summary>Finds an exporter by format name.</summary>
    /// <param name="format"><c>csv</c>, <c>json</c>, <c>md</c> or <c>html</c>.</param>
    /// <param name="exporter">The exporter, when found.</param>
    /// <returns>Whether the format is known.</returns>
    public static bool TryGet(string format, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out IResultExporter? exporter)
    {
        exporter = All.FirstOrDefault(e => string.Equals(e.Format, format, StringComparison.OrdinalIgnoreCase)
            || (string.Equals(format, "markdown", StringComparison.OrdinalIgnoreCase) && e == Markdown));
        return exporter is not null;
    }
}
