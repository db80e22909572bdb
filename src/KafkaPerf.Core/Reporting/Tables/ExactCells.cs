using System.Globalization;

namespace KafkaPerf.Reporting.Tables;

/// <summary>Cells of the tables for other tools (the CSV files): numbers in full (round-trip) precision with the
/// invariant culture, a value not measured (absent or NaN) empty, flags <c>true</c> or <c>false</c>.</summary>
internal static class ExactCells
{
    public static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    public static string Number(long? value) => value is { } v ? Number(v) : string.Empty;

    public static string Number(double? value) =>
        value is not { } v || double.IsNaN(v) ? string.Empty : v.ToString("R", CultureInfo.InvariantCulture);

    public static string Flag(bool value) => value ? "true" : "false";
}
