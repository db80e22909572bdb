using System.CommandLine;
using System.Globalization;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.History;
using KafkaPerf.Reporting.Tables;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>compare CANDIDATE.json --against-history N --store S</c>: each cell of a new result against the last N
/// comparable stored results (<see cref="HistoryGate"/>); with <c>--fail-if-slower</c>, exit 4 when one is slower beyond it.</summary>
internal static class CompareHistory
{
    public static async Task<int> RunAsync(ParseResult parse, string file, int last, double? percent, HistoryScope scope, CancellationToken cancellationToken)
    {
        if (last < HistoryGate.MinimumHistory) return CliErrors.BadInput($"--against-history {last} is too few: the gate needs at least {HistoryGate.MinimumHistory} past results, e.g. --against-history 10.");
        BenchmarkResult candidate;
        IReadOnlyList<HistoryJudgement> judgements;
        StoreLocation location;
        try
        {
            candidate = CompareCommand.Read(file);
            var request = StoreOptions.Require(parse, "compare --against-history");
            location = request.Location;
            var store = await request.OpenAsync(cancellationToken);
            judgements = await HistoryGateQuery.JudgeAsync(store, candidate, scope, cancellationToken);
        }
        catch (InvalidDataException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return CliErrors.BadInput($"The result file '{file}' could not be read ({ex.Message.TrimEnd('.')}): give the .json file a run wrote.", ex);
        }
        catch (PlanValidationException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (ResultStoreException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        if (judgements.Count == 0) return CliErrors.BadInput($"'{file}' has no measured cell to judge.");

        MarkdownExporter.WriteBlocks(HistoryTables.Judgements(candidate, judgements, last, scope.AnyEnvironment, location.ToString(), percent), Console.Out);
        foreach (var line in CellKey.NotVerifiedLines(candidate, "candidate")) Console.Error.WriteLine(line);
        int unjudged = judgements.Count(j => !j.Judged);
        if (unjudged > 0)
        {
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"kafkaperf: {unjudged} of {judgements.Count} cells were not judged: fewer than {HistoryGate.MinimumHistory} comparable results in the store (a new plan, machine class or label builds its history first; the gate passes them)."));
        }
        if (percent is not { } allowed) return ExitCodes.Success;
        var slower = judgements.Where(j => j.IsSlowerBeyond(allowed)).ToList();
        foreach (var j in slower)
        {
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"kafkaperf: {j.Cell.Describe()} is slower than its last {j.HistoryResults} results by {ReportFigures.Percent(j.Ratio - 1)} % in {j.Cell.Metric} (95 % interval {ReportFigures.Percent(j.Low - 1)} to {ReportFigures.Percent(j.High - 1)} %), beyond the {allowed:0.#} % allowed."));
        }
        if (slower.Count > 0) return ExitCodes.Slower;
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"kafkaperf: no cell is slower than its history by more than {allowed:0.#} % with 95 % confidence ({judgements.Count - unjudged} judged)."));
        return ExitCodes.Success;
    }
}
