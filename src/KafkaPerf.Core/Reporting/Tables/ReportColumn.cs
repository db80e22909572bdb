namespace KafkaPerf.Reporting.Tables;

/// <summary>A column of a <see cref="ReportTable"/>: its header and how its cells line up.</summary>
public sealed class ReportColumn
{
    /// <summary>Creates a column.</summary>
    /// <param name="header">The header, plain text.</param>
    /// <param name="alignment">How the cells line up.</param>
    /// <exception cref="ArgumentNullException"><paramref name="header"/> is <see langword="null"/>.</exception>
    public ReportColumn(string header, ColumnAlignment alignment)
    {
        ArgumentNullException.ThrowIfNull(header);
        Header = header;
        Alignment = alignment;
    }

    /// <summary>The header, plain text.</summary>
    public string Header { get; }

    /// <summary>How the cells line up.</summary>
    public ColumnAlignment Alignment { get; }

    /// <summary>A column of text, aligned to the left.</summary>
    /// <param name="header">The header.</param>
    /// <returns>The column.</returns>
    public static ReportColumn Left(string header) => new(header, ColumnAlignment.Left);

    /// <summary>A column of figures, aligned to the right.</summary>
    /// <param name="header">The header.</param>
    /// <returns>The column.</returns>
    public static ReportColumn Right(string header) => new(header, ColumnAlignment.Right);
}
