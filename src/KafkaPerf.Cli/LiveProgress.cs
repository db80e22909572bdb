using System.Globalization;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using Spectre.Console;

namespace KafkaPerf.Cli;

/// <summary>
/// Progress on a terminal: the per-run lines of <see cref="ConsoleProgress"/> scroll above a live bar that shows the
/// current cell and client, run i of n, the last run's msg/s and the time left. Where standard error is not a terminal
/// (a pipe, a CI log), <see cref="ConsoleProgress"/> alone writes plain lines.
/// </summary>
internal sealed class LiveProgress : IBenchmarkProgress
{
    private static volatile TextWriter? s_active;
    private readonly IAnsiConsole _console;
    private readonly ConsoleProgress _lines;
    private ProgressTask? _task;
    private string _last = string.Empty;

    private LiveProgress(IAnsiConsole console)
    {
        _console = console;
        _lines = new ConsoleProgress(new LineWriter(console));
    }

    /// <summary>Standard error for lines written from other threads (the <c>--otel console</c> exporter): through the
    /// live display while one runs, so they scroll above the bar instead of breaking it; straight to standard error
    /// otherwise.</summary>
    public static TextWriter Lines { get; } = new ActiveOrStandardError();

    /// <summary>Whether standard error is a terminal that can show a live display.</summary>
    public static bool IsSupported =>
        !Console.IsErrorRedirected && Environment.GetEnvironmentVariable("TERM") is { Length: > 0 } term && term != "dumb";

    /// <summary>Runs <paramref name="run"/> under a live progress display on standard error.</summary>
    /// <param name="plan">The plan about to run (for the number of runs).</param>
    /// <param name="run">The benchmark, given the progress to report to.</param>
    /// <returns>What <paramref name="run"/> returned.</returns>
    public static async Task<T> RunAsync<T>(BenchmarkPlan plan, Func<IBenchmarkProgress, ValueTask<T>> run)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(Console.Error), Ansi = AnsiSupport.Detect, Interactive = InteractionSupport.Yes,
        });
        var progress = new LiveProgress(console);
        return await console.Progress()
            .AutoClear(true)
            .HideCompleted(true)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn { Width = 24 }, new PercentageColumn(), new RemainingTimeColumn())
            .StartAsync(async context =>
            {
                progress._task = context.AddTask("starting clients", maxValue: Math.Max(1, plan.TotalRuns));
                s_active = new LineWriter(console);
                try
                {
                    return await run(progress);
                }
                finally
                {
                    s_active = null;
                }
            });
    }

    public void OnPlanStarted(BenchmarkPlan plan) => _lines.OnPlanStarted(plan);

    public void OnRunStarting(RunDescriptor run)
    {
        ArgumentNullException.ThrowIfNull(run);
        _lines.OnRunStarting(run);
        var cell = run.Cell;
        var what = string.Create(CultureInfo.InvariantCulture,
            $"{cell.Scenario.ToString().ToLowerInvariant()} {cell.MessageCount:N0} × {cell.PayloadBytes:N0} B · {run.Client} {(run.IsWarmup ? "warm-up" : $"run {run.Repetition}")} · {run.Sequence}/{run.TotalRuns}");
        if (_task is { } task) task.Description = Markup.Escape(what + _last);
    }

    public void OnRunCompleted(RunDescriptor run, RunRecord record)
    {
        ArgumentNullException.ThrowIfNull(record);
        _lines.OnRunCompleted(run, record);
        _last = record.Succeeded ? string.Create(CultureInfo.InvariantCulture, $" · last {record.MessagesPerSecond:N0} msg/s") : " · last run failed";
        _task?.Increment(1);
    }

    public void OnWarning(string message) => _lines.OnWarning(message);

    public void OnClusterWarmupRound(int round, string client, TimeSpan elapsed, TimeSpan length) =>
        _lines.OnClusterWarmupRound(round, client, elapsed, length);

    private sealed class ActiveOrStandardError : TextWriter
    {
        public override System.Text.Encoding Encoding => System.Text.Encoding.UTF8;

        public override void WriteLine(string? value) => (s_active ?? Console.Error).WriteLine(value);

        public override void Write(char value) => (s_active ?? Console.Error).Write(value);
    }

    /// <summary>Lines written through the live console, so they scroll above the bar instead of breaking it.</summary>
    private sealed class LineWriter(IAnsiConsole console) : TextWriter
    {
        public override System.Text.Encoding Encoding => System.Text.Encoding.UTF8;

        public override void WriteLine(string? value) => console.Write(new Text((value ?? string.Empty) + Environment.NewLine));

        public override void Write(char value) => console.Write(new Text(value.ToString()));
    }
}
