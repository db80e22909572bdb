using System.Text;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>The shared work of exporters: atomic files (a temporary file, then a rename), so a reader never
/// sees a half-written result and an interrupted export leaves nothing behind.</summary>
public abstract class ResultExporterBase : IResultExporter
{
    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    /// <inheritdoc />
    public abstract string Format { get; }

    /// <inheritdoc />
    public abstract string FileExtension { get; }

    /// <inheritdoc />
    public abstract void Export(BenchmarkResult result, TextWriter writer);

    /// <inheritdoc />
    public virtual IReadOnlyList<CompanionFile> CompanionFiles(BenchmarkResult result) => [];

    /// <inheritdoc />
    public IReadOnlyList<string> ExportToFolder(BenchmarkResult result, string directory, string baseName)
    {
        ArgumentNullException.ThrowIfNull(result);
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, $"{baseName}.{FileExtension}");
        WriteAtomically(path, writer => Export(result, writer));
        var written = new List<string> { path };
        foreach (var companion in CompanionFiles(result))
        {
            var companionPath = Path.Combine(directory, companion.FileName(baseName));
            WriteAtomically(companionPath, companion.Write);
            written.Add(companionPath);
        }
        return written;
    }

    /// <summary>Writes a file through a temporary file in the same folder, then renames it into place.</summary>
    /// <param name="path">The final path.</param>
    /// <param name="write">Writes the content.</param>
    /// <param name="overwrite">Whether an existing file may be replaced; when not, an existing file makes it throw
    /// <see cref="IOException"/> and nothing is written.</param>
    public static void WriteAtomically(string path, Action<TextWriter> write, bool overwrite = true)
    {
        ArgumentNullException.ThrowIfNull(write);
        var full = Path.GetFullPath(path);
        var temp = Path.Combine(Path.GetDirectoryName(full)!, $".{Path.GetFileName(full)}.{Guid.NewGuid():N}.tmp");
        try
        {
            using (var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            using (var writer = new StreamWriter(stream, Utf8NoBom))
            {
                writer.NewLine = "\n";
                write(writer);
                writer.Flush();
                stream.Flush(flushToDisk: true);
            }
            File.Move(temp, full, overwrite);
        }
        finally
        {
            if (File.Exists(temp)) File.Delete(temp);
        }
    }
}
