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

    /// <summary>Writes every format, and every format's companion files, into a folder under a base name no earlier
    /// result has: <paramref name="stem"/>, else <c>stem-2</c>, <c>stem-3</c>, … A base name is taken when any of the
    /// files it would need exists, so every file of one export shares one base name. Never replaces a file, even when
    /// another process writes the same name meanwhile.</summary>
    /// <param name="result">The result.</param>
    /// <param name="directory">The output folder.</param>
    /// <param name="stem">The preferred file name without extension.</param>
    /// <returns>Every path written: each format's main file followed by its companion files.</returns>
    /// <exception cref="IOException">The folder cannot be written.</exception>
    /// <exception cref="InvalidOperationException">Two different exporters would write a file of the same name.</exception>
    public IReadOnlyList<string> ExportToFolderUnique(BenchmarkResult result, string directory, string stem)
    {
        ArgumentNullException.ThrowIfNull(result);
        Directory.CreateDirectory(directory);
        // A format named twice (md,markdown) is written once.
        var files = Exporters.Distinct().SelectMany(exporter => FilesOf(exporter, result)).ToList();
        var clash = files.GroupBy(f => f.Name(stem), StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1);
        if (clash is not null) throw new InvalidOperationException($"Two exporters would both write '{clash.Key}'.");
        for (int attempt = 1; ; attempt++)
        {
            var baseName = attempt == 1 ? stem : $"{stem}-{attempt}";
            var paths = files.Select(f => Path.Combine(directory, f.Name(baseName))).ToList();
            if (paths.Any(File.Exists)) continue;
            var written = new List<string>();
            try
            {
                for (int i = 0; i < files.Count; i++)
                {
                    ResultExporterBase.WriteAtomically(paths[i], files[i].Write, overwrite: false);
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

    private static IEnumerable<(Func<string, string> Name, Action<TextWriter> Write)> FilesOf(IResultExporter exporter, BenchmarkResult result)
    {
        yield return (baseName => $"{baseName}.{exporter.FileExtension}", writer => exporter.Export(result, writer));
        foreach (var companion in exporter.CompanionFiles(result))
            yield return (companion.FileName, companion.Write);
    }
}
