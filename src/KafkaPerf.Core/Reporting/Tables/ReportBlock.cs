namespace KafkaPerf.Reporting.Tables;

/// <summary>
/// One block of a report: a <see cref="ReportNote"/>, a <see cref="ReportList"/>, a <see cref="ReportParagraph"/> or a
/// <see cref="ReportTable"/>. Their text is plain (no markup of any format): each renderer escapes it for its own, and
/// shows a line break inside a text or a cell as a space, so a text never breaks its block.
/// </summary>
public abstract class ReportBlock
{
    // Only the four kinds above: a renderer must know how to show every block.
    private protected ReportBlock()
    {
    }
}
