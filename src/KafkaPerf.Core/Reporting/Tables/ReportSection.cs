namespace KafkaPerf.Reporting.Tables;

/// <summary>A titled section of a <see cref="ReportDocument"/>, such as one comparison or the per-client statistics.</summary>
public sealed class ReportSection
{
    /// <summary>Creates a section.</summary>
    /// <param name="title">The title, plain text.</param>
    /// <param name="blocks">Its blocks, in order.</param>
    /// <exception cref="ArgumentNullException">A parameter or a block is <see langword="null"/>.</exception>
    public ReportSection(string title, IEnumerable<ReportBlock> blocks)
    {
        ArgumentNullException.ThrowIfNull(title);
        ArgumentNullException.ThrowIfNull(blocks);
        Title = title;
        Blocks = [.. blocks];
        if (Blocks.Any(block => block is null)) throw new ArgumentNullException(nameof(blocks), "A block is null.");
    }

    /// <summary>The title, plain text.</summary>
    public string Title { get; }

    /// <summary>Its blocks, in order.</summary>
    public IReadOnlyList<ReportBlock> Blocks { get; }
}
