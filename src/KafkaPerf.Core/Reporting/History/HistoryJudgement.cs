namespace KafkaPerf.Reporting.History;

/// <summary>A cell of a new result against its history.</summary>
/// <param name="Cell">The cell.</param>
/// <param name="HistoryResults">How many comparable past results had the cell.</param>
/// <param name="HistoryCenter">The geometric mean of their medians; NaN when not judged.</param>
/// <param name="CandidateMedian">The candidate's median on the cell's metric.</param>
/// <param name="CandidateRuns">The candidate's successful runs.</param>
/// <param name="Ratio">Candidate against history; above 1 slower.</param>
/// <param name="Low">The prediction interval's lower end.</param>
/// <param name="High">Its upper end.</param>
/// <param name="Judged">Whether there was history enough to judge.</param>
public sealed record HistoryJudgement(
    CellKey Cell, int HistoryResults, double HistoryCenter, double CandidateMedian, int CandidateRuns, double Ratio, double Low, double High, bool Judged)
{
    /// <summary>Whether the candidate is slower than its history by more than <paramref name="percent"/> %: the whole
    /// interval lies above 1 + percent / 100.</summary>
    /// <param name="percent">The allowed slowdown, e.g. 10.</param>
    public bool IsSlowerBeyond(double percent) => Judged && double.IsFinite(Low) && Low > 1 + (percent / 100);

    /// <summary>Whether the candidate is faster than its history: the whole interval lies below 1.</summary>
    public bool IsFaster => Judged && double.IsFinite(High) && High < 1;
}
