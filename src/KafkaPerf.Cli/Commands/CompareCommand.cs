using System.CommandLine;
using System.Globalization;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.Tables;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>compare BASE.json CANDIDATE.json</c>: per-cell ratios with confidence intervals and verdicts; with
/// <c>--fail-if-slower PCT</c> a CI gate.</summary>
internal static class CompareCommand
{
    /// <summary>The exit code when the gate finds a cell slower beyond the allowed percentage.</summary>
    public const int Slower = ExitCodes.Slower;

    private static readonly Argument<string[]> Files = new("files")
    {
        Description = "BASELINE.json CANDIDATE.json (result files written by run); with --against-history, CANDIDATE.json alone.",
        Arity = new ArgumentArity(1, 2),
    };

    private static readonly Option<int?> AgainstHistory = new("--against-history")
    {
        Description = "Judge the candidate against the last N comparable results in the store (--store): same cell, same environment class; each past result counts once, by its median. A cell with fewer than 3 such results is not judged.",
    };

    private static readonly Option<bool> AnyEnvironment = new("--any-environment") { Description = "With --against-history: results of every environment class are comparable, not only the candidate's." };
    private static readonly Option<string?> HistoryLabel = new("--history-label") { Description = "With --against-history: only past results stored with this label (e.g. main)." };
    private static readonly Option<string?> HistoryBranch = new("--history-branch") { Description = "With --against-history: only past results of this branch." };
    private static readonly Option<double?> FailIfSlower = new("--fail-if-slower")
    {
        Description = "Exit with code 4 when a cell of the candidate is slower than the baseline by more than this percentage, with 95 % confidence (elapsed time for bursts, p99 response time at a rate).",
    };

    public static Command Build()
    {
        var command = new Command("compare", "Compare two saved results cell by cell, or one against its history in a store; with --fail-if-slower, fail when the candidate got slower.")
        {
            Files, FailIfSlower, AgainstHistory, AnyEnvironment, HistoryLabel, HistoryBranch,
        };
        foreach (var option in StoreOptions.ForRead) command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, ct));
        return command;
    }

    private static async Task<int> ExecuteAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        var percent = parse.GetValue(FailIfSlower);
        if (percent is { } p && !(p >= 0 && p < 1000))
            return BadInput($"--fail-if-slower {p.ToString(CultureInfo.InvariantCulture)} is out of range: give a percentage from 0 (any significant slowdown) upwards, e.g. 10.");
        var files = parse.GetValue(Files)!;
        if (parse.GetValue(AgainstHistory) is { } last)
        {
            if (files.Length != 1) return BadInput("compare --against-history takes one result file, the candidate: its baseline is the store's history.");
            return await CompareHistory.RunAsync(parse, files[0], last, percent, new HistoryScope(last, parse.GetValue(AnyEnvironment), parse.GetValue(HistoryLabel), parse.GetValue(HistoryBranch)), cancellationToken);
        }
        if (files.Length != 2) return BadInput("compare takes two result files, BASELINE.json CANDIDATE.json, or one with --against-history N and --store.");
        BenchmarkResult baseline, candidate;
        try
        {
            baseline = Read(files[0]);
            candidate = Read(files[1]);
        }
        catch (InvalidDataException ex)
        {
            return BadInput(ex.Message, ex);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return BadInput($"A result file could not be read ({ex.Message.TrimEnd('.')}): give the .json file a run wrote.", ex);
        }

        var comparisons = ResultComparison.Compare(baseline, candidate);
        if (comparisons.Count == 0)
            return BadInput("The two results have no cell in common (same client, scenario, messages, payload size and settings): compare results of the same plan.");
        MarkdownExporter.WriteBlocks(ComparisonTables.Blocks(comparisons), Console.Out);
        MarkdownExporter.WriteBlocks(ComparisonTables.RebalanceBlocks(RebalanceEventComparison.Compare(baseline, candidate)), Console.Out);
        foreach (var line in CellKey.NotVerifiedLines(baseline, "baseline").Concat(CellKey.NotVerifiedLines(candidate, "candidate"))) Console.Error.WriteLine(line);

        if (percent is not { } allowed) return ExitCodes.Success;
        var slower = comparisons.Where(c => c.IsSlowerBeyond(allowed)).ToList();
        foreach (var c in slower)
        {
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"kafkaperf: {c.Client} {c.Scenario.ToString().ToLowerInvariant()} {c.MessageCount} × {c.PayloadBytes} B{(c.OfferedRate is { } rate ? $" at {rate:0.###} msg/s" : string.Empty)} ({c.Variant}) is slower by {ReportFigures.Percent(c.ElapsedSeconds.ShiftRatio - 1)} % in {c.Metric} (95 % interval {ReportFigures.Percent(c.ElapsedSeconds.ShiftRatioLow - 1)} to {ReportFigures.Percent(c.ElapsedSeconds.ShiftRatioHigh - 1)} %), beyond the {allowed:0.#} % allowed."));
        }
        if (slower.Count > 0) return Slower;
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"kafkaperf: no cell is slower than the baseline by more than {allowed:0.#} % with 95 % confidence ({comparisons.Count} compared)."));
        return ExitCodes.Success;
    }

    internal static BenchmarkResult Read(string path)
    {
        if (!File.Exists(path)) throw new InvalidDataException($"The result file '{path}' does not exist: give the .json file a run wrote.");
        return ResultJson.Read(path);
    }

    private static int BadInput(string message, Exception? exception = null) => CliErrors.BadInput(message, exception);
}
