using System.Globalization;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting.Tables;

/// <summary>
/// How every table a person reads writes its figures and verdicts: the run report, <c>compare</c>, <c>history</c>, the
/// gate and the assertion messages. One formatter per kind of figure and one wording per verdict, so the same figure
/// reads the same wherever it is shown. Invariant culture; a value not measured is <c>–</c>. (The tables for other
/// tools, the CSV files, write numbers in full precision instead.)
/// </summary>
public static class ReportFigures
{
    /// <summary>A count with its thousands apart: <c>10 000</c>.</summary>
    /// <param name="value">The count.</param>
    /// <returns>The text.</returns>
    public static string Count(long value) => value.ToString("N0", CultureInfo.InvariantCulture).Replace(",", " ", StringComparison.Ordinal);

    /// <summary>A count, or <c>–</c> when there is none.</summary>
    /// <param name="value">The count, if measured.</param>
    /// <returns>The text.</returns>
    public static string Count(long? value) => value is { } v ? Count(v) : "–";

    /// <summary>A measured value in a format of its kind (<c>0.000000</c> for seconds, <c>0.0</c> for microseconds,
    /// <c>0</c> for rates); <c>–</c> when not measured (absent or NaN), <c>∞</c> when unbounded.</summary>
    /// <param name="value">The value, if measured.</param>
    /// <param name="format">The .NET format of its kind.</param>
    /// <returns>The text.</returns>
    public static string Value(double? value, string format = "0.00") =>
        value is not { } v || double.IsNaN(v) ? "–" : double.IsInfinity(v) ? "∞" : v.ToString(format, CultureInfo.InvariantCulture);

    /// <summary>A value on a cell's metric (elapsed seconds, or p99 response microseconds at a rate) as results over time
    /// show it: whole from 100, otherwise with up to four decimals (<c>0.0213</c>); <c>–</c> when not measured.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The text.</returns>
    public static string Metric(double value) => Value(double.IsInfinity(value) ? double.NaN : value, value >= 100 ? "0" : "0.####");

    /// <summary>A ratio as a percentage to a hundredth: <c>1.2503</c> is <c>125.03</c>; the caller says <c>%</c> (in the
    /// header or after the figure). The one percent formatter: ratios of candidate to baseline or history, their
    /// intervals, a slowdown (<c>ratio − 1</c>) and a coefficient of variation all go through it.</summary>
    /// <param name="ratio">The ratio, if measured.</param>
    /// <returns>The text; <c>–</c> when not measured.</returns>
    public static string Percent(double? ratio) => Value(ratio * 100, "0.00");

    /// <summary>The one wording of a verdict: <c>faster</c>, <c>slower</c>, <c>on par</c>, <c>inconclusive</c>, the first
    /// two after whom they are about when given (<c>knet faster</c>, <c>candidate slower</c>).</summary>
    /// <param name="verdict">The verdict.</param>
    /// <param name="subject">Who is faster or slower, when the table does not say it.</param>
    /// <returns>The words.</returns>
    public static string Verdict(Verdict verdict, string? subject = null) => verdict switch
    {
        Statistics.Verdict.Faster => subject is null ? "faster" : $"{subject} faster",
        Statistics.Verdict.Slower => subject is null ? "slower" : $"{subject} slower",
        Statistics.Verdict.OnPar => "on par",
        _ => "inconclusive",
    };

    /// <summary>How a comparison marks a cell with runs not verified, e.g. <c>; 1 candidate run not verified</c>.</summary>
    /// <param name="runs">The runs not verified.</param>
    /// <param name="whose">Whose runs: <c>candidate</c> or <c>baseline</c>.</param>
    /// <returns>The mark; empty for none.</returns>
    public static string NotVerifiedMark(int runs, string whose) =>
        runs == 0 ? string.Empty : $"; {Count(runs)} {whose} run{(runs == 1 ? string.Empty : "s")} not verified";
}
