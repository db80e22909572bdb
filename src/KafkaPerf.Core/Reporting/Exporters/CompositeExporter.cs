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

    /// <summary>Writes every format into a folder under a name no earlier result has: <paramref name="stem"/>, else
    /// <c>stem-2</c>, <c>stem-3</c>, … Never replaces a file, even when another process writes the same name meanwhile.</summary>
    /// <param name="result">The result.</param>
    /// <param name="directory">The output folder.</param>
    /// <param name="stem">The preferred file name without extension.</param>
    /// <returns>Every path written.</returns>
    /// <exception cref="IOException">The folder cannot be written.</exception>
    public IReadOnlyList<string> ExportToFolderUnique(BenchmarkResult result, string directory, string stem)
    {
        ArgumentNullException.ThrowIfNull(result);
        Directory.CreateDirectory(directory);
        for (int attempt = 1; ; attempt++)
        {
            var baseName = attempt == 1 ? stem : $"{stem}-{attempt}";
            var paths = Exporters.Select(e => Path.Combine(directory, $"{baseName}.{e.FileExtension}")).ToList();
            if (paths.Any(File.Exists)) continue;
            var written = new List<string>();
            try
            {
                for (int i = 0; i < Exporters.Count; i++)
                {
                    var exporter = Exporters[i];
                    ResultExporterBase.WriteAtomically(paths[i], writer => exporter.Export(result, writer), overwrite: false);
                    written.Add(paths[i]);
                }
                return written;
            }
            catch (IOException) when (attempt < 1000 && File.Exists(paths[written.Count]))
            {
                // Another run took this name between the check and the rename: ours go under the next name.
                foreach (var path in written) File.Delete(path);
            }
        }
    }
}
