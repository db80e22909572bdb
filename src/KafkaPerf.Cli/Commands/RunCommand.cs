using System.CommandLine;
using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>run</c>: the seed benchmark as a matrix.</summary>
internal sealed class RunCommand
{
    private static readonly Option<string> Clients = new("--clients") { Description = "Clients to compare, comma-separated; the first is the baseline.", DefaultValueFactory = _ => "inmemory" };
    private static readonly Option<string> Scenarios = new("--scenarios") { Description = "produce, consume, roundtrip (comma-separated).", DefaultValueFactory = _ => "produce,consume,roundtrip" };
    private static readonly Option<string> Sizes = new("--sizes") { Description = "Payload sizes in bytes, comma-separated.", DefaultValueFactory = _ => "100,1000,10000" };
    private static readonly Option<string> Messages = new("--messages") { Description = "Messages per run, comma-separated.", DefaultValueFactory = _ => "10000" };
    private static readonly Option<int> Repeat = new("--repeat") { Description = "Measured runs per client and cell.", DefaultValueFactory = _ => 5 };
    private static readonly Option<string?> Bootstrap = new("--bootstrap") { Description = "Kafka bootstrap servers host:port." };
    private static readonly Option<string> Output = new("--output") { Description = "Folder for result files.", DefaultValueFactory = _ => "kafkaperf-results" };
    private static readonly Option<string> Format = new("--format") { Description = "csv, json, md (comma-separated).", DefaultValueFactory = _ => "csv,json,md" };
    private static readonly Option<bool> Quiet = new("--quiet") { Description = "No progress lines, only the tables." };

    private readonly ClientRegistry _registry;

    public RunCommand(ClientRegistry registry) => _registry = registry;

    public Command Build()
    {
        var command = new Command("run", "Run a benchmark matrix and print the comparison tables.")
        {
            Clients, Scenarios, Sizes, Messages, Repeat, Bootstrap, Output, Format, Quiet,
        };
        command.SetAction((parse, ct) => ExecuteAsync(parse, ct));
        return command;
    }

    private async Task<int> ExecuteAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        BenchmarkPlan plan;
        List<IResultExporter> exporters;
        try
        {
            plan = new BenchmarkPlanBuilder()
                .Clients(List(parse.GetValue(Clients)))
                .Scenarios([.. List(parse.GetValue(Scenarios)).Select(ParseScenario)])
                .PayloadSizes([.. List(parse.GetValue(Sizes)).Select(s => ParseNumber<int>(s, "payload size"))])
                .MessageCounts([.. List(parse.GetValue(Messages)).Select(s => ParseNumber<long>(s, "message count"))])
                .Repeat(parse.GetValue(Repeat))
                .Build();
            exporters = [.. List(parse.GetValue(Format)).Select(f => DefaultExporters.TryGet(f, out var e)
                ? e : throw new PlanValidationException($"Unknown format '{f}': use csv, json and/or md."))];
        }
        catch (PlanValidationException ex)
        {
            return BadInput(ex.Message);
        }

        var runner = new BenchmarkRunner(_registry, new ClientConnection(parse.GetValue(Bootstrap)));
        var findings = runner.Validate(plan);
        if (findings.Count > 0) return BadInput(string.Join(Environment.NewLine, findings.Select(f => f.Message)));

        var output = parse.GetValue(Output)!;
        try
        {
            Directory.CreateDirectory(output);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return BadInput($"Cannot write to output folder '{output}': {ex.Message}. Choose another with --output.");
        }

        IBenchmarkProgress progress = parse.GetValue(Quiet) ? NullProgress.Instance : new ConsoleProgress(Console.Error);
        var result = await runner.RunAsync(plan, progress, cancellationToken);

        var baseName = "kafkaperf-" + result.StartedAtUtc.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        var written = new CompositeExporter(exporters).ExportToFolder(result, output, baseName);
        DefaultExporters.Markdown.Export(result, Console.Out);
        foreach (var path in written) Console.Error.WriteLine($"wrote {path}");

        if (result.Cancelled) return ExitCodes.Cancelled;
        return result.FailedRuns > 0 ? ExitCodes.RunsFailed : ExitCodes.Success;
    }

    private static int BadInput(string message)
    {
        Console.Error.WriteLine($"kafkaperf: {message}");
        return ExitCodes.BadInput;
    }

    private static string[] List(string? value) =>
        (value ?? string.Empty).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static ScenarioKind ParseScenario(string value) =>
        Enum.TryParse<ScenarioKind>(value, ignoreCase: true, out var kind) && Enum.IsDefined(kind)
            ? kind
            : throw new PlanValidationException($"Unknown scenario '{value}': use produce, consume and/or roundtrip.");

    private static T ParseNumber<T>(string value, string what) where T : IParsable<T> =>
        T.TryParse(value.Replace("_", string.Empty, StringComparison.Ordinal), CultureInfo.InvariantCulture, out var number)
            ? number
            : throw new PlanValidationException($"The {what} '{value}' is not a whole number.");
}
