using KafkaPerf.Reporting.Tables;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>
/// The report of <see cref="ResultTables.Document"/> as Markdown (GitHub's pipe tables): what <c>run</c> prints on the
/// console and writes to the <c>.md</c> file. Cells escape their pipes; a line break in a text is written as a space.
/// </summary>
public sealed class MarkdownExporter : ResultExporterBase
{
    /// <inheritdoc />
    public override string Format => "md";

    /// <inheritdoc />
    public override string FileExtension => "md";

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        Write(ResultTables.Document(result), writer);
    }

    /// <summary>Writes a report as Markdown: its title as <c>#</c>, each section's as <c>##</c>, a blank line after every block.</summary>
    /// <param name="document">The report.</param>
    /// <param name="writer">Where to write.</param>
    public static void Write(ReportDocument document, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write($"# {Line(document.Title)}\n\n");
        WriteBlocks(document.Preamble, writer);
        foreach (var section in document.Sections) WriteSection(section, writer, level: 2);
    }

    /// <summary>Writes a section: its title as a heading of <paramref name="level"/> (<c>##</c> for 2), then its blocks.</summary>
    /// <param name="section">The section.</param>
    /// <param name="writer">Where to write.</param>
    /// <param name="level">The heading's level, 1 to 6: a section of a report is at 2, one of a command's output may be lower.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="level"/> is not 1 to 6.</exception>
    public static void WriteSection(ReportSection section, TextWriter writer, int level = 2)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentOutOfRangeException.ThrowIfLessThan(level, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(level, 6);
        writer.Write($"{new string('#', level)} {Line(section.Title)}\n\n");
        WriteBlocks(section.Blocks, writer);
    }

    /// <summary>Writes blocks as Markdown, a blank line after each: what a command prints that is not a whole report
    /// (<c>compare</c>, <c>history</c>).</summary>
    /// <param name="blocks">The blocks, in order.</param>
    /// <param name="writer">Where to write.</param>
    public static void WriteBlocks(IEnumerable<ReportBlock> blocks, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(blocks);
        ArgumentNullException.ThrowIfNull(writer);
        foreach (var block in blocks)
        {
            WriteBlock(block, writer);
            writer.Write('\n');
        }
    }

    /// <summary>Writes one table as a pipe table (its header, the alignment line, a line per row) with no blank line
    /// after it: for a table inside other text, such as an assertion's message.</summary>
    /// <param name="table">The table.</param>
    /// <param name="writer">Where to write.</param>
    public static void WriteTable(ReportTable table, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentNullException.ThrowIfNull(writer);
        WriteRow(table.Columns.Select(c => c.Header), writer);
        writer.Write($"|{string.Join('|', table.Columns.Select(c => c.Alignment == ColumnAlignment.Right ? "---:" : "---"))}|\n");
        foreach (var row in table.Rows) WriteRow(row, writer);
    }

    private static void WriteBlock(ReportBlock block, TextWriter writer)
    {
        switch (block)
        {
            case ReportNote note:
                writer.Write($"> **{Line(note.Label)}**: {Line(note.Text)}\n");
                break;
            case ReportList list:
                foreach (var item in list.Items) writer.Write($"- {Line(item)}\n");
                break;
            case ReportParagraph paragraph:
                writer.Write($"{Line(paragraph.Text)}\n");
                break;
            case ReportTable table:
                WriteTable(table, writer);
                break;
            default:
                throw new ArgumentException($"A block of an unknown kind: {block.GetType().Name}.", nameof(block));
        }
    }

    private static void WriteRow(IEnumerable<string> cells, TextWriter writer) =>
        writer.Write($"| {string.Join(" | ", cells.Select(Cell))} |\n");

    /// <summary>A text on one line: a line break would end its paragraph, list item or table row.</summary>
    private static string Line(string text) => text.ReplaceLineEndings(" ");

    /// <summary>A cell's text: one line, and a pipe inside it is not the cell's end.</summary>
    private static string Cell(string text) => Line(text).Replace("|", "\\|", StringComparison.Ordinal);
}
