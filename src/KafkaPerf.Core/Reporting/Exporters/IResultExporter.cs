namespace KafkaPerf.Reporting.Exporters;

/// <summary>Writes a finished result in one format. Exporters see only the result model.</summary>
public interface IResultExporter
{
    /// <summary>The format name used on the command line (<c>csv</c>, <c>json</c>, <c>md</c>).</summary>
    string Format { get; }

    /// <summary>File extension, without the dot.</summary>
    string FileExtension { get; }

    /// <summary>Writes the result.</summary>
    /// <param name="result">The result.</param>
    /// <param name="writer">Where to write.</param>
    void Export(BenchmarkResult result, TextWriter writer);

    /// <summary>Writes the result to <c>{directory}/{baseName}.{extension}</c> atomically.</summary>
    /// <param name="result">The result.</param>
    /// <param name="directory">The output folder; created when missing.</param>
    /// <param name="baseName">File name without extension.</param>
    /// <returns>The paths written.</returns>
    IReadOnlyList<string> ExportToFolder(BenchmarkResult result, string directory, string baseName);
}
