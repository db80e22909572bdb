using System.CommandLine;
using System.Globalization;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;

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

        Console.Out.Write(string.Create(CultureInfo.InvariantCulture,
            $"Candidate against the last {last} comparable results in {location} ({(scope.AnyEnvironment ? "any environment" : EnvironmentClass.Of(candidate.Environment))}): its median against the history's (each past result counts once, by its median), with the 95 % prediction interval of a new result's median.\n\n"));
        Console.Out.Write("| client | scenario | variant | messages | payload B | offered msg/s | compared | history results | history | candidate (runs) | ratio % | PI low % | PI high % | verdict |\n");
        Console.Out.Write("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|\n");
        var open = CellKey.NotVerifiedOf(candidate);
        foreach (var j in judgements)
        {
            var c = j.Cell;
            string mark = open.TryGetValue(c, out var o) ? CellKey.NotVerifiedMark(o.Runs, "candidate") : string.Empty;
            Console.Out.Write(string.Create(CultureInfo.InvariantCulture,
                $"| {c.Client} | {c.Scenario.ToString().ToLowerInvariant()} | {c.Variant} | {c.MessageCount} | {c.PayloadBytes} | {(c.OfferedRate is { } rate ? rate.ToString("0.###", CultureInfo.InvariantCulture) : "–")} | {c.Metric} | {j.HistoryResults} | {Number(j.HistoryCenter)} | {Number(j.CandidateMedian)} ({j.CandidateRuns}) | {Percent(j.Ratio)} | {Percent(j.Low)} | {Percent(j.High)} | {Verdict(j, percent)}{mark} |\n"));
        }
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
                $"kafkaperf: {j.Cell.Describe()} is slower than its last {j.HistoryResults} results by {(j.Ratio - 1) * 100:0.0} % in {j.Cell.Metric} (95 % interval {(j.Low - 1) * 100:0.0} to {(j.High - 1) * 100:0.0} %), beyond the {allowed:0.#} % allowed."));
        }
        if (slower.Count > 0) return ExitCodes.Slower;
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"kafkaperf: no cell is slower than its history by more than {allowed:0.#} % with 95 % confidence ({judgements.Count - unjudged} judged)."));
        return ExitCodes.Success;
    }

    private static string Verdict(HistoryJudgement judgement, double? percent) => judgement switch
    {
        { Judged: false } j => $"not judged ({j.HistoryResults} of {HistoryGate.MinimumHistory} results)",
        var j when j.IsSlowerBeyond(percent ?? 0) => "slower",
        var j when j.IsFaster => "faster",
        _ => "within its history",
    };

    private static string Number(double value) => double.IsFinite(value) ? value.ToString(value >= 100 ? "0" : "0.####", CultureInfo.InvariantCulture) : "–";

    private static string Percent(double ratio) => double.IsFinite(ratio) ? (ratio * 100).ToString("0.0", CultureInfo.InvariantCulture) : "–";
}
