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
        foreach (var block in document.Preamble) WriteBlock(block, writer);
        foreach (var section in document.Sections)
        {
            writer.Write($"## {Line(section.Title)}\n\n");
            foreach (var block in section.Blocks) WriteBlock(block, writer);
        }
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
                WriteRow(table.Columns.Select(c => c.Header), writer);
                writer.Write($"|{string.Join('|', table.Columns.Select(c => c.Alignment == ColumnAlignment.Right ? "---:" : "---"))}|\n");
                foreach (var row in table.Rows) WriteRow(row, writer);
                break;
            default:
                throw new ArgumentException($"A block of an unknown kind: {block.GetType().Name}.", nameof(block));
        }
        writer.Write('\n');
    }

    private static void WriteRow(IEnumerable<string> cells, TextWriter writer) =>
        writer.Write($"| {string.Join(" | ", cells.Select(Cell))} |\n");

    /// <summary>A text on one line: a line break would end its paragraph, list item or table row.</summary>
    private static string Line(string text) => text.ReplaceLineEndings(" ");

    /// <summary>A cell's text: one line, and a pipe inside it is not the cell's end.</summary>
    private static string Cell(string text) => Line(text).Replace("|", "\\|", StringComparison.Ordinal);
}
