using System.CommandLine;
using System.Globalization;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>compare BASE.json CANDIDATE.json</c>: per-cell ratios with confidence intervals and verdicts; with
/// <c>--fail-if-slower PCT</c> a CI gate.</summary>
internal static class CompareCommand
{
    /// <summary>The exit code when the gate finds a cell slower beyond the allowed percentage.</summary>
    public const int Slower = 4;

    private static readonly Argument<string> Baseline = new("baseline") { Description = "The reference result file (.json written by run)." };
    private static readonly Argument<string> Candidate = new("candidate") { Description = "The result file to judge (.json)." };
    private static readonly Option<double?> FailIfSlower = new("--fail-if-slower")
    {
        Description = "Exit with code 4 when a cell of the candidate is slower than the baseline by more than this percentage, with 95 % confidence (elapsed time for bursts, p99 response time at a rate).",
    };

    public static Command Build()
    {
        var command = new Command("compare", "Compare two saved results cell by cell; with --fail-if-slower, fail when the candidate got slower.")
        {
            Baseline, Candidate, FailIfSlower,
        };
        command.SetAction(Execute);
        return command;
    }

    private static int Execute(ParseResult parse)
    {
        var percent = parse.GetValue(FailIfSlower);
        if (percent is { } p && !(p >= 0 && p < 1000))
            return BadInput($"--fail-if-slower {p.ToString(CultureInfo.InvariantCulture)} is out of range: give a percentage from 0 (any significant slowdown) upwards, e.g. 10.");
        BenchmarkResult baseline, candidate;
        try
        {
            baseline = Read(parse.GetValue(Baseline)!);
            candidate = Read(parse.GetValue(Candidate)!);
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
        ResultComparison.WriteMarkdown(comparisons, Console.Out);

        if (percent is not { } allowed) return ExitCodes.Success;
        var slower = comparisons.Where(c => c.IsSlowerBeyond(allowed)).ToList();
        foreach (var c in slower)
        {
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"kafkaperf: {c.Client} {c.Scenario.ToString().ToLowerInvariant()} {c.MessageCount} × {c.PayloadBytes} B{(c.OfferedRate is { } rate ? $" at {rate:0.###} msg/s" : string.Empty)} ({c.Variant}) is slower by {(c.ElapsedSeconds.ShiftRatio - 1) * 100:0.0} % in {c.Metric} (95 % interval {(c.ElapsedSeconds.ShiftRatioLow - 1) * 100:0.0} to {(c.ElapsedSeconds.ShiftRatioHigh - 1) * 100:0.0} %), beyond the {allowed:0.#} % allowed."));
        }
        if (slower.Count > 0) return Slower;
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"kafkaperf: no cell is slower than the baseline by more than {allowed:0.#} % with 95 % confidence ({comparisons.Count} compared)."));
        return ExitCodes.Success;
    }

    private static BenchmarkResult Read(string path)
    {
        if (!File.Exists(path)) throw new InvalidDataException($"The result file '{path}' does not exist: give the .json file a run wrote.");
        return ResultJson.Read(path);
    }

    private static int BadInput(string message, Exception? exception = null) => CliErrors.BadInput(message, exception);
}
