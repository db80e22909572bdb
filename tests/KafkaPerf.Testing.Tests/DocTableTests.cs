using System.Text;
using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Testing.Tests;

/// <summary>The reference docs stay scannable: no cell of a Markdown table in README.md or docs/*.md holds more than
/// <see cref="MaxCell"/> characters (results-schema.md's <c>runs[]</c> was one cell of 8 447). A row is a line that
/// starts with <c>|</c> outside a fenced block; it splits on pipes that are neither escaped (<c>\|</c>) nor inside a
/// code span.</summary>
public class DocTableTests
{
    /// <summary>The longest cell allowed, in characters, trimmed.</summary>
    public const int MaxCell = 600;

    [Fact]
    public void TableCells_InTheReadmeAndDocs_AreAtMost600Characters()
    {
        var root = ExternalProcess.RepositoryRoot();
        var files = new[] { "README.md" }.Concat(Directory.EnumerateFiles(Path.Combine(root, "docs"), "*.md")
            .Select(f => Path.GetRelativePath(root, f).Replace('\\', '/')).Order(StringComparer.Ordinal));

        var rows = files.SelectMany(f => Rows(f, File.ReadAllLines(Path.Combine(root, f)))).ToList();
        var tooLong = rows.SelectMany(r => Cells(r.Text).Where(c => c.Length > MaxCell)
            .Select(c => $"{r.Where}: a cell of {c.Length} characters: {c[..60]}…")).ToList();

        Assert.True(rows.Count > 100, $"only {rows.Count} table rows found: the row finder is broken");
        Assert.True(tooLong.Count == 0, $"split these cells (a list or a table below the row, one row per field):\n{string.Join('\n', tooLong)}");
    }

    [Fact]
    public void Cells_PipesEscapedOrInCode_DoNotSplit()
    {
        Assert.Equal(["a", "`x | y`", @"b \| c", "``d ` | e``"], Cells(@"| a | `x | y` | b \| c | ``d ` | e`` |"));
    }

    [Fact]
    public void Rows_InAFencedBlock_AreNotTableRows()
    {
        var rows = Rows("x.md", ["| a |", "```", "| output |", "```", "  | b |"]);

        Assert.Equal(["x.md:1", "x.md:5"], rows.Select(r => r.Where));
    }

    /// <summary>The table rows of a file: lines starting with a pipe, outside fenced blocks.</summary>
    internal static IEnumerable<(string Where, string Text)> Rows(string file, IReadOnlyList<string> lines)
    {
        string? fence = null;
        for (int i = 0; i < lines.Count; i++)
        {
            var line = lines[i].Trim();
            if (fence is null && (line.StartsWith("```", StringComparison.Ordinal) || line.StartsWith("~~~", StringComparison.Ordinal)))
                fence = new string(line[0], line.TakeWhile(c => c == line[0]).Count());
            else if (fence is not null && line.StartsWith(fence, StringComparison.Ordinal) && line.TrimEnd(fence[0]).Length == 0)
                fence = null;
            else if (fence is null && line.StartsWith('|'))
                yield return ($"{file}:{i + 1}", line);
        }
    }

    /// <summary>A row's cells, trimmed: split on pipes that are not escaped and not inside a code span (a run of
    /// backticks closed by a run of the same length).</summary>
    internal static IReadOnlyList<string> Cells(string row)
    {
        var cells = new List<string>();
        var cell = new StringBuilder();
        int code = 0;
        for (int i = 0; i < row.Length; i++)
        {
            char c = row[i];
            if (c == '\\' && i + 1 < row.Length)
            {
                cell.Append(c).Append(row[++i]);
            }
            else if (c == '`')
            {
                int run = 1;
                while (i + run < row.Length && row[i + run] == '`') run++;
                if (code == 0) code = run;
                else if (code == run) code = 0;
                cell.Append('`', run);
                i += run - 1;
            }
            else if (c == '|' && code == 0)
            {
                cells.Add(cell.ToString().Trim());
                cell.Clear();
            }
            else
            {
                cell.Append(c);
            }
        }
        cells.Add(cell.ToString().Trim());
        // The row's leading and trailing pipes leave an empty cell at each end.
        if (cells.Count > 0 && cells[0].Length == 0) cells.RemoveAt(0);
        if (cells.Count > 0 && cells[^1].Length == 0 && row.TrimEnd().EndsWith('|')) cells.RemoveAt(cells.Count - 1);
        return cells;
    }
}
