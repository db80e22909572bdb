using System.CommandLine;
using KafkaPerf.Cli.Telemetry;
using KafkaPerf.Plans;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Cli.Commands;

/// <summary>Where <c>run</c>'s and <c>find-rate</c>'s results go and what is said while they run.</summary>
internal static class OutputOptions
{
    public static readonly Option<string> Output = new("--output") { Description = "Folder for result files; created, with any missing parent folders, when it does not exist (and those removed again when bad input ends the command before anything is written).", DefaultValueFactory = _ => "kafkaperf-results" };
    public static readonly Option<string> Format = new("--format") { Description = "csv, json, md, html (comma-separated); html is a self-contained report with charts, each also written as an .svg file.", DefaultValueFactory = _ => "csv,json,md,html" };
    public static readonly Option<string[]> Otel = new("--otel") { Description = "Export KafkaPerf's metrics and spans: otlp (to the collector the OTEL_EXPORTER_OTLP_* variables name) and/or console (metrics on standard error); repeatable or comma-separated." };
    public static readonly Option<bool> Quiet = new("--quiet") { Description = "No progress lines, only the tables." };
    public static readonly Option<bool> Profile = new("--profile") { Description = "Sample where each client's CPU goes with Linux's perf, inside the timed sections of the measured runs only (their figures then include the sampling's cost): per client and cell, folded stacks and a flame graph beside the report, and the share of each layer (librdkafka, Confluent.Kafka, .NET runtime and GC, kernel, …) in it. Needs perf (Debian: linux-perf) and perf_event_paranoid ≤ 2 or root; not with --workers. Reference tools run in processes of their own and are not sampled." };

    /// <summary>The options, in --help's order.</summary>
    public static Option[] All => [Output, Format, Otel, Quiet];

    /// <summary>Reads the outputs.</summary>
    /// <param name="parse">The command line.</param>
    /// <returns>What was asked for.</returns>
    /// <exception cref="PlanValidationException">Bad input; one line.</exception>
    public static Outputs Read(ParseResult parse)
    {
        var otel = OtelTargetsParser.Parse(parse.GetValue(Otel));
        List<IResultExporter> exporters = [.. PlanOptions.List(parse.GetValue(Format)).Select(f => DefaultExporters.TryGet(f, out var e)
            ? e : throw new PlanValidationException($"Unknown format '{f}': use csv, json, md and/or html."))];
        if (exporters.Count == 0) throw new PlanValidationException("--format is empty: name at least one of csv, json, md and html.");
        if (string.IsNullOrWhiteSpace(parse.GetValue(Output)))
            throw new PlanValidationException("--output is empty: name a folder for the results, e.g. --output kafkaperf-results.");
        return new Outputs(parse.GetValue(Output)!, exporters, otel, parse.GetValue(Quiet));
    }
}

/// <summary>What <c>run</c> writes and says.</summary>
/// <param name="Folder">The output folder.</param>
/// <param name="Exporters">The formats.</param>
/// <param name="Otel">Where metrics and spans go.</param>
/// <param name="Quiet">No progress lines.</param>
internal sealed record Outputs(string Folder, IReadOnlyList<IResultExporter> Exporters, OtelTargets Otel, bool Quiet)
{
    /// <summary>Where progress lines go: standard error, or nowhere with --quiet.</summary>
    public TextWriter? Log => Quiet ? null : Console.Error;

    /// <summary>The formats' names.</summary>
    public string[] Formats => [.. Exporters.Select(e => e.Format)];
}
