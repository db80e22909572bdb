namespace KafkaPerf.Reporting.Tables;

/// <summary>A table: its columns, and rows of one plain-text cell per column.</summary>
public sealed class ReportTable : ReportBlock
{
    /// <summary>Creates a table.</summary>
    /// <param name="columns">The columns, in order.</param>
    /// <param name="rows">The rows, in order; each has one cell per column.</param>
    /// <exception cref="ArgumentNullException">A parameter, a column, a row or a cell is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentException">A row has more or fewer cells than there are columns.</exception>
    public ReportTable(IEnumerable<ReportColumn> columns, IEnumerable<IReadOnlyList<string>> rows)
    {
        ArgumentNullException.ThrowIfNull(columns);
        ArgumentNullException.ThrowIfNull(rows);
        Columns = [.. columns];
        if (Columns.Any(column => column is null)) throw new ArgumentNullException(nameof(columns), "A column is null.");
        var copied = new List<IReadOnlyList<string>>();
        foreach (var row in rows)
        {
            ArgumentNullException.ThrowIfNull(row, nameof(rows));
            if (row.Count != Columns.Count)
                throw new ArgumentException($"Row {copied.Count + 1} has {row.Count} cells for {Columns.Count} columns.", nameof(rows));
            if (row.Any(cell => cell is null)) throw new ArgumentNullException(nameof(rows), $"Row {copied.Count + 1} has a null cell.");
            copied.Add([.. row]);
        }
        Rows = copied;
    }

    /// <summary>The columns, in order.</summary>
    public IReadOnlyList<ReportColumn> Columns { get; }

    /// <summary>The rows, in order; each has one cell per column.</summary>
    public IReadOnlyList<IReadOnlyList<string>> Rows { get; }
}
