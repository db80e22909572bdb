namespace KafkaPerf.Reporting.Exporters;

/// <summary>A file an exporter writes beside its main one, under the same base name: <c>{baseName}-{Suffix}.{Extension}</c>
/// (the HTML report's charts as <c>kafkaperf-20261122-100000-throughput-produce.svg</c>).</summary>
/// <remarks>The suffix starts with a letter, so that a companion of <c>stem</c> can never be mistaken for a file of
/// the numbered names <c>stem-2</c>, <c>stem-3</c>, … that keep results from replacing each other.</remarks>
public sealed record CompanionFile
{
    /// <summary>Creates a companion file.</summary>
    /// <param name="suffix">Lower-case letters, digits and dashes, starting with a letter.</param>
    /// <param name="extension">The extension, without the dot.</param>
    /// <param name="write">Writes the content.</param>
    /// <exception cref="ArgumentException">The suffix or the extension is not a safe file-name part.</exception>
    public CompanionFile(string suffix, string extension, Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(suffix);
        ArgumentNullException.ThrowIfNull(extension);
        ArgumentNullException.ThrowIfNull(write);
        if (suffix.Length == 0 || !char.IsAsciiLetterLower(suffix[0]) || !suffix.All(c => char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c == '-'))
            throw new ArgumentException($"The companion suffix '{suffix}' must start with a lower-case letter and hold only a-z, 0-9 and '-'.", nameof(suffix));
        if (extension.Length == 0 || !extension.All(char.IsAsciiLetterOrDigit))
            throw new ArgumentException($"The extension '{extension}' must be letters and digits only.", nameof(extension));
        Suffix = suffix;
        Extension = extension;
        Write = write;
    }

    /// <summary>What follows the base name and a dash.</summary>
    public string Suffix { get; }

    /// <summary>The extension, without the dot.</summary>
    public string Extension { get; }

    /// <summary>Writes the content.</summary>
    public Action<TextWriter> Write { get; }

    /// <summary>The file's name for a base name.</summary>
    /// <param name="baseName">The export's base name.</param>
    /// <returns><c>{baseName}-{Suffix}.{Extension}</c>.</returns>
    public string FileName(string baseName) => $"{baseName}-{Suffix}.{Extension}";
}
