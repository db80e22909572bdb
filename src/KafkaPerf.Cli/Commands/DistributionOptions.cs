using System.CommandLine;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Plans;

namespace KafkaPerf.Cli.Commands;

/// <summary>Where <c>run</c>'s runs run when not in this process: a worker group, or worker processes the tool starts.</summary>
internal static class DistributionOptions
{
    public static readonly Option<string?> Workers = new("--workers") { Description = "Run every run on the workers of this group (each started with 'dotnet kafkaperf worker --group GROUP --bootstrap …' on a machine that reaches the cluster), sharing its records, rate and producers." };
    public static readonly Option<int?> Expect = new("--expect") { Description = "How many workers of --workers GROUP run the plan (default 1)." };
    public static readonly Option<int?> Processes = new("--processes") { Description = "Run every run in this many worker processes on this machine, started by the tool, sharing its records, rate and producers as --workers does." };
    public static readonly Option<string?> JoinTimeout = new("--join-timeout") { Description = "How long the plan waits for its workers to join and start their clients (default 60s)." };

    /// <summary>The options, in --help's order.</summary>
    public static Option[] All => [Workers, Expect, Processes, JoinTimeout];

    /// <summary>Reads where the runs run.</summary>
    /// <param name="parse">The command line.</param>
    /// <returns>The distribution; <see langword="null"/> to run in this process.</returns>
    /// <exception cref="PlanValidationException">Bad input; one line.</exception>
    public static Distribution? Read(ParseResult parse)
    {
        var group = parse.GetValue(Workers);
        var expect = parse.GetValue(Expect);
        var processes = parse.GetValue(Processes);
        if (group is null && processes is null)
        {
            if (expect is not null) throw new PlanValidationException("--expect counts the workers of --workers GROUP: give --workers too, or leave --expect out.");
            if (parse.GetValue(JoinTimeout) is not null) throw new PlanValidationException("--join-timeout is for --workers or --processes: give one of them, or leave it out.");
            return null;
        }
        if (group is not null && processes is not null)
            throw new PlanValidationException("--workers and --processes both say where the runs run: --workers GROUP for workers started by hand, --processes P for P started by the tool.");
        if (parse.GetValue(PlanOptions.ClusterWarmup) is not null)
            throw new PlanValidationException("--cluster-warmup runs this process's clients, and with --workers or --processes the workers run them: leave it out (a short plan before the real one warms the cluster up).");
        if (processes is not null && expect is not null)
            throw new PlanValidationException("--expect is for --workers: with --processes P the tool starts P workers and waits for them.");
        if (group is not null && WorkerBus.CheckGroupName(group) is { } bad) throw new PlanValidationException($"--workers: {bad}.");
        if (expect is < 1 or > 1000) throw new PlanValidationException($"--expect {expect} is out of range: give 1 to 1000 workers.");
        if (processes is < 1 or > 64) throw new PlanValidationException($"--processes {processes} is out of range: give 1 to 64 processes.");
        var join = parse.GetValue(JoinTimeout) is { } text ? LoadOptions.Duration(text, "--join-timeout") : TimeSpan.FromSeconds(60);
        return new Distribution(group, expect ?? 1, processes, join);
    }
}

/// <summary>Where the runs run when not here: a worker group, or local worker processes.</summary>
/// <param name="Group">The group of workers started by hand; <see langword="null"/> for the tool's own processes.</param>
/// <param name="Expect">How many workers run the plan.</param>
/// <param name="Processes">How many worker processes the tool starts; <see langword="null"/> for a group.</param>
/// <param name="JoinTimeout">How long the plan waits for them.</param>
internal sealed record Distribution(string? Group, int Expect, int? Processes, TimeSpan JoinTimeout);
