namespace KafkaPerf.Reporting.Tables;

/// <summary>A paragraph of text, such as what the table after it shows.</summary>
public sealed class ReportParagraph : ReportBlock
{
    /// <summary>Creates a paragraph.</summary>
    /// <param name="text">The text.</param>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is <see langword="null"/>.</exception>
    public ReportParagraph(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        Text = text;
    }

    /// <summary>The text.</summary>
    public string Text { get; }
}
