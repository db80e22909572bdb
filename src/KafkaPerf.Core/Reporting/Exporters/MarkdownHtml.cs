using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>Turns the Markdown that <see cref="MarkdownExporter"/> writes into HTML: headings, paragraphs, bullet
/// lists, block quotes, pipe tables with their column alignment, <c>**bold**</c> and <c>`code`</c>. Only that
/// subset, which is all the exporter uses; every piece of text is HTML-escaped.</summary>
internal static partial class MarkdownHtml
{
    /// <summary>Converts <paramref name="markdown"/>.</summary>
    /// <param name="markdown">The Markdown text.</param>
    /// <param name="headingShift">Levels added to every heading, so that a document's <c>##</c> can sit under a page's own <c>h2</c>.</param>
    /// <returns>The HTML fragment.</returns>
    public static string Convert(string markdown, int headingShift = 0)
    {
        var html = new StringBuilder();
        var lines = markdown.Replace("\r\n", "\n", StringComparison.Ordinal).Split('\n');
        var paragraph = new List<string>();
        bool inList = false;

        void Flush()
        {
            if (paragraph.Count > 0)
            {
                html.Append("<p>").Append(Inline(string.Join(' ', paragraph))).Append("</p>\n");
                paragraph.Clear();
            }
            if (inList)
            {
                html.Append("</ul>\n");
                inList = false;
            }
        }

        for (int i = 0; i < lines.Length; i++)
        {
            var line = lines[i];
            if (line.Trim().Length == 0)
            {
                Flush();
            }
            else if (HeadingLine().Match(line) is { Success: true } heading)
            {
                Flush();
                int level = Math.Min(6, heading.Groups[1].Length + headingShift);
                html.Append(CultureInfo.InvariantCulture, $"<h{level}>").Append(Inline(heading.Groups[2].Value)).Append(CultureInfo.InvariantCulture, $"</h{level}>\n");
            }
            else if (line.StartsWith("> ", StringComparison.Ordinal))
            {
                Flush();
                html.Append("<blockquote>").Append(Inline(line[2..])).Append("</blockquote>\n");
            }
            else if (line.StartsWith("- ", StringComparison.Ordinal))
            {
                if (paragraph.Count > 0) Flush();
                if (!inList)
                {
                    html.Append("<ul>\n");
                    inList = true;
                }
                html.Append("<li>").Append(Inline(line[2..])).Append("</li>\n");
            }
            else if (line.StartsWith('|'))
            {
                Flush();
                var table = new List<string>();
                while (i < lines.Length && lines[i].StartsWith('|')) table.Add(lines[i++]);
                i--;
                AppendTable(html, table);
            }
            else
            {
                if (inList) Flush();
                paragraph.Add(line.Trim());
            }
        }
        Flush();
        return html.ToString();
    }

    private static void AppendTable(StringBuilder html, List<string> rows)
    {
        var header = Cells(rows[0]);
        string[] alignment = [];
        int bodyStart = 1;
        if (rows.Count > 1 && AlignmentRow().IsMatch(rows[1]))
        {
            alignment = [.. Cells(rows[1]).Select(c => c.EndsWith(':') ? (c.StartsWith(':') ? "center" : "right") : string.Empty)];
            bodyStart = 2;
        }
        string Align(int column) => column < alignment.Length && alignment[column].Length > 0 ? $" class=\"{alignment[column]}\"" : string.Empty;

        html.Append("<div class=\"table\"><table>\n<thead><tr>");
        for (int c = 0; c < header.Count; c++) html.Append(CultureInfo.InvariantCulture, $"<th{Align(c)}>").Append(Inline(header[c])).Append("</th>");
        html.Append("</tr></thead>\n<tbody>\n");
        foreach (var row in rows.Skip(bodyStart))
        {
            var cells = Cells(row);
            html.Append("<tr>");
            for (int c = 0; c < cells.Count; c++) html.Append(CultureInfo.InvariantCulture, $"<td{Align(c)}>").Append(Inline(cells[c])).Append("</td>");
            html.Append("</tr>\n");
        }
        html.Append("</tbody></table></div>\n");
    }

    /// <summary>The cells of a table row; <c>\|</c> is a pipe inside a cell.</summary>
    private static List<string> Cells(string row)
    {
        var cells = new List<string>();
        var cell = new StringBuilder();
        var text = row.Trim();
        if (text.StartsWith('|')) text = text[1..];
        if (text.EndsWith('|') && !text.EndsWith("\\|", StringComparison.Ordinal)) text = text[..^1];
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '\\' && i + 1 < text.Length && text[i + 1] == '|')
            {
                cell.Append('|');
                i++;
            }
            else if (text[i] == '|')
            {
                cells.Add(cell.ToString().Trim());
                cell.Clear();
            }
            else
            {
                cell.Append(text[i]);
            }
        }
        cells.Add(cell.ToString().Trim());
        return cells;
    }

    private static string Inline(string text)
    {
        var escaped = Escape(text);
        escaped = Bold().Replace(escaped, "<strong>$1</strong>");
        return Code().Replace(escaped, "<code>$1</code>");
    }

    /// <summary>Escapes text for HTML content or a quoted attribute; other characters stay as they are (the page is UTF-8).</summary>
    internal static string Escape(string text) => text
        .Replace("&", "&amp;", StringComparison.Ordinal)
        .Replace("<", "&lt;", StringComparison.Ordinal)
        .Replace(">", "&gt;", StringComparison.Ordinal)
        .Replace("\"", "&quot;", StringComparison.Ordinal);

    [GeneratedRegex(@"^(#{1,6}) +(.*)$")]
    private static partial Regex HeadingLine();

    [GeneratedRegex(@"^\|(\s*:?-+:?\s*\|)+\s*$")]
    private static partial Regex AlignmentRow();

    [GeneratedRegex(@"\*\*(.+?)\*\*")]
    private static partial Regex Bold();

    [GeneratedRegex("`([^`]+)`")]
    private static partial Regex Code();
}
