using KafkaPerf.Reporting.Tables;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>The run table of <see cref="ResultTables.Runs"/> as CSV: one row per run, warm-ups and failures included
/// (flagged), for other tools to process.</summary>
public sealed class CsvExporter : ResultExporterBase
{
    /// <inheritdoc />
    public override string Format => "csv";

    /// <inheritdoc />
    public override string FileExtension => "csv";

    /// <inheritdoc />
    /// <remarks>Load runs add their time series: one row per run and interval (<c>-intervals.csv</c>), and the intervals'
    /// histograms in HdrHistogram's log format (<c>-intervals.hlog</c>); runs with faults, one row per run and fault
    /// (<c>-faults.csv</c>).</remarks>
    public override IReadOnlyList<CompanionFile> CompanionFiles(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var files = new List<CompanionFile>();
        if (result.Runs.Any(r => r.Intervals is { Count: > 0 }))
            files.AddRange([new CompanionFile("intervals", "csv", writer => Write(IntervalTables.Rows(result), writer)), new CompanionFile("intervals", "hlog", writer => HistogramLog.Write(result, writer))]);
        if (result.Runs.Any(r => r.Faults is { Count: > 0 })) files.Add(new CompanionFile("faults", "csv", writer => Write(FaultTables.Rows(result), writer)));
        if (result.Runs.Any(r => r.Rebalances is { Count: > 0 })) files.Add(new CompanionFile("rebalances", "csv", writer => Write(RebalanceTables.Rows(result), writer)));
        return files;
    }

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        Write(ResultTables.Runs(result), writer);
    }

    /// <summary>Writes a table as CSV: a line of headers, then a line per row.</summary>
    /// <param name="table">The table.</param>
    /// <param name="writer">Where to write.</param>
    public static void Write(ReportTable table, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentNullException.ThrowIfNull(writer);
        WriteLine(table.Columns.Select(c => c.Header), writer);
        foreach (var row in table.Rows) WriteLine(row, writer);
    }

    /// <summary>Writes the header line of the run table: what a file of appended rows (the CLI's checkpoint) starts with.</summary>
    /// <param name="writer">Where to write.</param>
    public static void WriteHeader(TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        WriteLine(ResultTables.RunColumns.Select(c => c.Header), writer);
    }

    /// <summary>Writes one run's line, as <see cref="Export"/> does.</summary>
    /// <param name="run">The run.</param>
    /// <param name="writer">Where to write.</param>
    public static void WriteRow(RunRecord run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);
        WriteLine(ResultTables.RunRow(run), writer);
    }

    /// <summary>Writes one line of fields, each quoted as it needs.</summary>
    internal static void WriteLine(IEnumerable<string> fields, TextWriter writer)
    {
        writer.Write(string.Join(',', fields.Select(Quote)));
        writer.Write('\n');
    }

    // RFC 4180: quote fields holding a comma, a quote or a line break; double the quotes inside.
    private static string Quote(string field) =>
        field.AsSpan().IndexOfAny(",\"\n\r") >= 0 ? $"\"{field.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : field;
}
