namespace KafkaPerf.Reporting.Tables;

/// <summary>
/// A report as every human format shows it: a title; the preamble under it (notes, the environment and the plan, the
/// clients); then titled sections of tables. The console and the Markdown, and the HTML page, render the same document,
/// each escaping its plain text for its own format; <see cref="ResultTables.Document"/> builds it from a result.
/// </summary>
public sealed class ReportDocument
{
    /// <summary>Creates a document.</summary>
    /// <param name="title">The title, plain text.</param>
    /// <param name="preamble">The blocks under the title, before the first section.</param>
    /// <param name="sections">The sections, in order.</param>
    /// <exception cref="ArgumentNullException">A parameter, a block or a section is <see langword="null"/>.</exception>
    public ReportDocument(string title, IEnumerable<ReportBlock> preamble, IEnumerable<ReportSection> sections)
    {
        ArgumentNullException.ThrowIfNull(title);
        ArgumentNullException.ThrowIfNull(preamble);
        ArgumentNullException.ThrowIfNull(sections);
        Title = title;
        Preamble = [.. preamble];
        Sections = [.. sections];
        if (Preamble.Any(block => block is null)) throw new ArgumentNullException(nameof(preamble), "A block is null.");
        if (Sections.Any(section => section is null)) throw new ArgumentNullException(nameof(sections), "A section is null.");
    }

    /// <summary>The title, plain text.</summary>
    public string Title { get; }

    /// <summary>The blocks under the title, before the first section.</summary>
    public IReadOnlyList<ReportBlock> Preamble { get; }

    /// <summary>The sections, in order.</summary>
    public IReadOnlyList<ReportSection> Sections { get; }

    /// <summary>Every table of the document in order: the preamble's, then each section's.</summary>
    public IEnumerable<ReportTable> Tables => Preamble.Concat(Sections.SelectMany(section => section.Blocks)).OfType<ReportTable>();
}
