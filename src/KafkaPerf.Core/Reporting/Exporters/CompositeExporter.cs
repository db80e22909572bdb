namespace KafkaPerf.Reporting.Exporters;

/// <summary>Several exporters as one.</summary>
/// <param name="exporters">The exporters, run in order.</param>
public sealed class CompositeExporter(IReadOnlyList<IResultExporter> exporters)
{
    /// <summary>The exporters.</summary>
    public IReadOnlyList<IResultExporter> Exporters { get; } = exporters;

    /// <summary>Writes every format into a folder.</summary>
    /// <param name="result">The result.</param>
    /// <param name="directory">The output folder.</param>
    /// <param name="baseName">File name without extension.</param>
    /// <returns>Every path written.</returns>
    public IReadOnlyList<string> ExportToFolder(BenchmarkResult result, string directory, string baseName) =>
        [.. Exporters.SelectMany(e => e.ExportToFolder(result, directory, baseName))];
}
