namespace KafkaPerf.Reporting.Tables;

/// <summary>How a <see cref="ReportColumn"/>'s cells line up: text to the left, figures to the right.</summary>
public enum ColumnAlignment
{
    /// <summary>Aligned to the left: names, settings, verdicts, messages.</summary>
    Left,

    /// <summary>Aligned to the right: figures, so that their digits line up.</summary>
    Right,
}
