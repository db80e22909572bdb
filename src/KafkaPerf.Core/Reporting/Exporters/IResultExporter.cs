namespace KafkaPerf.Reporting.Exporters;

/// <summary>Writes a finished result in one format. Exporters see only the result model.</summary>
public interface IResultExporter
{
    /// <summary>The format name used on the command line (<c>csv</c>, <c>json</c>, <c>md</c>, <c>html</c>).</summary>
    string Format { get; }

    /// <summary>File extension, without the dot.</summary>
    string FileExtension { get; }

    /// <summary>Writes the result.</summary>
    /// <param name="result">The result.</param>
    /// <param name="writer">Where to write.</param>
    void Export(BenchmarkResult result, TextWriter writer);

    /// <summary>The files this format writes beside its main one, under the same base name (the HTML report's charts as
    /// .svg files); none by default.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The companion files, with unique suffixes.</returns>
    IReadOnlyList<CompanionFile> CompanionFiles(BenchmarkResult result) => [];

    /// <summary>Writes the result to <c>{directory}/{baseName}.{extension}</c>, and its companion files to
    /// <c>{directory}/{baseName}-{suffix}.{extension}</c>, each atomically.</summary>
    /// <param name="result">The result.</param>
    /// <param name="directory">The output folder; created when missing.</param>
    /// <param name="baseName">File name without extension.</param>
    /// <returns>The paths written.</returns>
    IReadOnlyList<string> ExportToFolder(BenchmarkResult result, string directory, string baseName);
}
