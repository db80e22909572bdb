using System.CommandLine;
using System.Globalization;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.History;
using KafkaPerf.Reporting.Tables;
using static KafkaPerf.Reporting.Tables.ReportColumn;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>history list | trend | import</c>: what a results store holds, a cell's trend (a table, and an HTML report
/// with one chart per cell), and a folder of result files added to it.</summary>
internal static class HistoryCommand
{
    private static readonly Option<string?> Client = new("--client") { Description = "Only this client's cells." };
    private static readonly Option<string?> Scenario = new("--scenario") { Description = "Only this scenario's cells (produce, consume, roundtrip)." };
    private static readonly Option<int?> Size = new("--size") { Description = "Only cells of this payload size (bytes)." };
    private static readonly Option<string?> Rate = new("--rate") { Description = "Only cells at this offered rate (msg/s)." };
    private static readonly Option<string?> Label = new("--label") { Description = "Only results stored with this label." };
    private static readonly Option<string?> Commit = new("--commit") { Description = "Only results of commits that start with this." };
    private static readonly Option<string?> Branch = new("--branch") { Description = "Only results of this branch." };
    private static readonly Option<string?> Since = new("--since") { Description = "Only results started on or after this date (2026-11-01, or a date and time in UTC)." };
    private static readonly Option<string?> Until = new("--until") { Description = "Only results started before this date." };
    private static readonly Option<int?> Last = new("--last") { Description = "Only the last N results that match (per cell for trend)." };
    private static readonly Option<string?> Html = new("--html") { Description = "trend: also write the HTML report (one chart per cell) to this file." };
    private static readonly Option<int> Against = new("--against") { Description = "trend: judge each point against this many comparable results before it, as compare --against-history does.", DefaultValueFactory = _ => 10 };
    private static readonly Option<double> FailIfSlower = new("--fail-if-slower") { Description = "trend: the slowdown (%) beyond which a point is flagged.", DefaultValueFactory = _ => 10 };
    private static readonly Argument<string> Folder = new("folder") { Description = "A folder of result files (.json written by run or find-rate); its subfolders too." };

    public static Command Build()
    {
        var list = new Command("list", "List stored results that match the filters, oldest first.");
        var trend = new Command("trend", "Show each cell's metric over the stored results, per client, with the gate's flags; --html writes a report with one chart per cell.");
        var import = new Command("import", "Add a folder of result files to the store (a file stored before is kept once).") { Folder };
        foreach (var command in new[] { list, trend })
        {
            foreach (var option in (Option[])[Client, Scenario, Size, Rate, Label, Commit, Branch, Since, Until, Last, .. StoreOptions.ForRead]) command.Options.Add(option);
        }
        foreach (var option in (Option[])[Html, Against, FailIfSlower]) trend.Options.Add(option);
        foreach (var option in StoreOptions.ForRead) import.Options.Add(option);
        list.SetAction((parse, ct) => Guard(parse, "history list", ListAsync, ct));
        trend.SetAction((parse, ct) => Guard(parse, "history trend", TrendAsync, ct));
        import.SetAction((parse, ct) => Guard(parse, "history import", ImportAsync, ct));
        return new Command("history", "What a results store (--store) holds: list it, show trends, import result files.") { list, trend, import };
    }

    private static async Task<int> Guard(ParseResult parse, string name, Func<ParseResult, ResultStore, CancellationToken, Task<int>> body, CancellationToken cancellationToken)
    {
        try
        {
            var request = StoreOptions.Require(parse, name);
            var store = await request.OpenAsync(cancellationToken);
            return await body(parse, store, cancellationToken);
        }
        catch (PlanValidationException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
        catch (ResultStoreException ex)
        {
            return CliErrors.BadInput(ex.Message, ex);
        }
    }

    private static async Task<int> ListAsync(ParseResult parse, ResultStore store, CancellationToken cancellationToken)
    {
        var results = await store.ListAsync(Filter(parse), cancellationToken);
        if (results.Count == 0)
        {
            Console.Error.WriteLine($"kafkaperf: no stored result in {store.Location} matches.");
            return ExitCodes.Success;
        }
        var table = new ReportTable(
            [Right("result"), Left("started (UTC)"), Left("label"), Left("commit"), Left("branch"), Left("clients"), Right("cells"), Left("machine"),
             Left("environment class"), Left("KafkaPerf")],
            results.Select(string[] (r) =>
            [
                r.Id.ToString(CultureInfo.InvariantCulture), r.StartedAt.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture), r.Metadata.Label ?? "–",
                r.Metadata.GitCommit is { } c ? c[..Math.Min(10, c.Length)] : "–", r.Metadata.GitBranch ?? "–", string.Join(", ", r.Clients),
                ReportFigures.Count(r.Cells), r.Machine, r.EnvironmentClass, r.ToolVersion,
            ]));
        MarkdownExporter.WriteTable(table, Console.Out);
        Console.Error.WriteLine($"kafkaperf: {results.Count} stored result(s) in {store.Location}.");
        return ExitCodes.Success;
    }

    private static async Task<int> TrendAsync(ParseResult parse, ResultStore store, CancellationToken cancellationToken)
    {
        int against = parse.GetValue(Against);
        double percent = parse.GetValue(FailIfSlower);
        if (against < HistoryGate.MinimumHistory) return CliErrors.BadInput($"--against {against} is too few: the gate needs at least {HistoryGate.MinimumHistory} results before a point.");
        if (!(percent >= 0 && percent < 1000)) return CliErrors.BadInput("--fail-if-slower is out of range: give a percentage from 0 upwards, e.g. 10.");
        var html = parse.GetValue(Html);
        var filter = Filter(parse);
        var cells = await store.CellsAsync(filter, cancellationToken: cancellationToken);
        if (cells.Count == 0)
        {
            Console.Error.WriteLine($"kafkaperf: no stored cell in {store.Location} matches.");
            return ExitCodes.Success;
        }
        // Each point judged as the gate would have judged it then: against the comparable results before it.
        var classes = (await store.ListAsync(filter with { Last = null }, cancellationToken)).ToDictionary(r => r.Id, r => r.EnvironmentClass);
        var points = new List<TrendPoint>();
        foreach (var group in cells.GroupBy(c => c.Cell))
        {
            var earlier = group.ToList();
            for (int i = 0; i < earlier.Count; i++)
            {
                var point = earlier[i];
                var before = earlier.Take(i).Where(e => e.Values.Count > 0 && classes.GetValueOrDefault(e.ResultId) == classes.GetValueOrDefault(point.ResultId))
                    .TakeLast(against).Select(e => e.Median).ToList();
                points.Add(new TrendPoint(point.ResultId, point.StartedAt, point.Metadata.Label, point.Metadata.GitCommit, point.Cell, point.Values,
                    HistoryGate.Judge(point.Cell, before, point.Values)));
            }
        }
        HistoryReport.WriteMarkdown(points, percent, Console.Out);
        if (html is not null)
        {
            var page = HistoryReport.Html(points, percent, $"KafkaPerf results over time: {store.Location}");
            var full = Path.GetFullPath(html);
            var temporary = full + ".tmp-" + Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
            try
            {
                await File.WriteAllTextAsync(temporary, page, cancellationToken);
                File.Move(temporary, full, overwrite: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                File.Delete(temporary);
                return CliErrors.BadInput($"The report '{html}' cannot be written ({ex.Message.TrimEnd('.')}): give another file with --html.", ex);
            }
            Console.Error.WriteLine($"wrote {full}");
        }
        return ExitCodes.Success;
    }

    private static async Task<int> ImportAsync(ParseResult parse, ResultStore store, CancellationToken cancellationToken)
    {
        var folder = parse.GetValue(Folder)!;
        if (!Directory.Exists(folder)) return CliErrors.BadInput($"The folder '{folder}' does not exist: give the folder your result files (.json) are in.");
        int added = 0, known = 0, other = 0;
        foreach (var file in Directory.EnumerateFiles(folder, "*.json", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            string json = await File.ReadAllTextAsync(file, cancellationToken);
            BenchmarkResult result;
            try
            {
                result = ResultJson.Parse(json, file);
            }
            catch (InvalidDataException)
            {
                other++;
                continue;
            }
            // A checkpoint of a plan that never finished, or one cut short, is not history.
            if (result.InProgress || result.Cancelled || result.AbortReason is not null || result.Runs.Count == 0)
            {
                other++;
                continue;
            }
            var outcome = await store.AppendAsync(json, new StoreMetadata(null, null, null), cancellationToken);
            if (outcome.AlreadyStored) known++;
            else added++;
        }
        Console.Error.WriteLine($"kafkaperf: imported {added} result(s) into {store.Location}; {known} were stored already; {other} file(s) were not finished KafkaPerf results.");
        return ExitCodes.Success;
    }

    private static HistoryFilter Filter(ParseResult parse) => new()
    {
        Client = parse.GetValue(Client),
        Scenario = parse.GetValue(Scenario) is { } scenario ? PlanOptions.ParseScenario(scenario) : null,
        PayloadBytes = parse.GetValue(Size),
        Rate = parse.GetValue(Rate) is { } rate ? LoadOptions.Rates(rate) is [var one] ? one : throw new PlanValidationException($"--rate '{rate}' names more than one rate: give one.") : null,
        Label = parse.GetValue(Label),
        Commit = parse.GetValue(Commit),
        Branch = parse.GetValue(Branch),
        Since = Date(parse.GetValue(Since), "--since"),
        Until = Date(parse.GetValue(Until), "--until"),
        Last = parse.GetValue(Last) is { } last ? last > 0 ? last : throw new PlanValidationException($"--last {last} must be positive.") : null,
    };

    private static DateTimeOffset? Date(string? text, string option) => text is null ? null
        : DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var date) ? date
        : throw new PlanValidationException($"{option} '{text}' is not a date: write e.g. {option} 2026-11-01 or {option} 2026-11-01T12:00Z.");
}
