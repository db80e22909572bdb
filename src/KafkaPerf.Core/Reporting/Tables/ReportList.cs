namespace KafkaPerf.Reporting.Tables;

/// <summary>A bullet list of facts or warnings, one text an item.</summary>
public sealed class ReportList : ReportBlock
{
    /// <summary>Creates a list.</summary>
    /// <param name="items">The items, in order.</param>
    /// <exception cref="ArgumentNullException"><paramref name="items"/> or one of them is <see langword="null"/>.</exception>
    public ReportList(IEnumerable<string> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        Items = [.. items];
        if (Items.Any(item => item is null)) throw new ArgumentNullException(nameof(items), "A list item is null.");
    }

    /// <summary>The items, in order.</summary>
    public IReadOnlyList<string> Items { get; }
}
