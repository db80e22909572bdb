namespace KafkaPerf.Reporting.Tables;

/// <summary>A callout that warns the reader before anything else, such as "Cancelled: this result holds only the runs
/// done before the cancellation."; its label is emphasised.</summary>
public sealed class ReportNote : ReportBlock
{
    /// <summary>Creates a note.</summary>
    /// <param name="label">What it is about, emphasised (<c>Cancelled</c>).</param>
    /// <param name="text">What it says, after the label and a colon.</param>
    /// <exception cref="ArgumentNullException">A parameter is <see langword="null"/>.</exception>
    public ReportNote(string label, string text)
    {
        ArgumentNullException.ThrowIfNull(label);
        ArgumentNullException.ThrowIfNull(text);
        Label = label;
        Text = text;
    }

    /// <summary>What it is about, emphasised.</summary>
    public string Label { get; }

    /// <summary>What it says, after the label and a colon.</summary>
    public string Text { get; }
}
