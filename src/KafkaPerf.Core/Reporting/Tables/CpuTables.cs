using KafkaPerf.Scenarios;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>
/// What each record costs from C up to the way .NET code calls the client: the ladder from kcat to librdkafka called
/// from .NET, to Confluent.Kafka and its call styles, step by step; and, with <c>--profile</c>, where each client's CPU
/// went, layer by layer.
/// </summary>
internal static class CpuTables
{
    /// <summary>The ladder's steps, in order, each with what it adds to the one before.</summary>
    internal static readonly IReadOnlyList<(string Client, string Step)> Steps =
    [
        ("kcat", "librdkafka from C, in a process of its own (reference)"),
        ("librdkafka", "+ called from .NET through P/Invoke, without Confluent.Kafka (reference)"),
        ("confluent", "+ Confluent.Kafka: a Message and a delivery report per record, a handler"),
        ("confluent-async", "+ a Task per record (ProduceAsync, a window in flight)"),
        ("confluent-sync", "+ each record awaited before the next (one in flight)"),
    ];

    /// <summary>The report's sections: the ladder for every burst cell that ran two of its steps or more, and the profiles.</summary>
    internal static IEnumerable<ReportSection> Sections(BenchmarkResult result)
    {
        if (Ladder(result) is { } ladder) yield return ladder;
        if (Profiles(result) is { } profiles) yield return profiles;
    }

    private static ReportSection? Ladder(BenchmarkResult result)
    {
        var rows = new List<IReadOnlyList<string>>();
        foreach (var cell in result.Cells.Where(c => c.OfferedRate is null)
                     .GroupBy(c => (c.Scenario, c.Variant, c.MessageCount, c.PayloadBytes)))
        {
            var steps = Steps.Select(s => (s.Client, s.Step, Cell: cell.FirstOrDefault(c => c.Client == s.Client)))
                .Where(s => s.Cell is { Runs: > 0 } && !double.IsNaN(s.Cell.MessagesPerSecond.Median)).ToList();
            if (steps.Count < 2) continue;
            double? firstWall = null;
            double? previousWall = null, previousCpu = null;
            foreach (var (client, step, c) in steps)
            {
                double wall = 1e6 / c!.MessagesPerSecond.Median;
                double? cpu = c.Resources?.CpuMillisPerThousandMessages;
                firstWall ??= wall;
                rows.Add(
                [
                    Name(cell.Key.Scenario), cell.Key.Variant, Count(cell.Key.MessageCount), Count(cell.Key.PayloadBytes), client, step,
                    Value(c.MessagesPerSecond.Median, "0"), Value(wall, "0.000"), previousWall is { } pw ? Signed(wall - pw) : "–",
                    Value(cpu, "0.000"), previousCpu is { } pc && cpu is { } now ? Signed(now - pc) : "–",
                    Value(c.Resources?.AllocatedBytesPerMessage, "0.0"), Value(wall / firstWall, "0.00"),
                ]);
                previousWall = wall;
                previousCpu = cpu;
            }
        }
        if (rows.Count == 0) return null;
        return new ReportSection("The .NET tax, step by step",
        [
            new ReportParagraph("The same librdkafka at each step, from kcat (C) up to the way .NET code calls Confluent.Kafka; each row adds one layer to "
                + "the row above. µs/msg = elapsed time per record (1 / median msg/s); CPU µs/msg = the client's CPU per record (user + system; kcat's "
                + "process for kcat); + = what this step added to the one above; × first = elapsed time per record against the first step's. "
                + "kcat and librdkafka are references: yardsticks, not clients to pick."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("messages"), Right("payload B"), Left("client"), Left("step"), Right("median msg/s"),
                Right("µs/msg"), Right("+ µs/msg"), Right("CPU µs/msg"), Right("+ CPU µs/msg"), Right("alloc B/msg"), Right("× first"),
            ], rows),
        ]);
    }

    private static ReportSection? Profiles(BenchmarkResult result)
    {
        if (result.Profiles is not { Count: > 0 } profiles) return null;
        var layers = profiles.SelectMany(p => p.Layers).GroupBy(l => l.Name)
            .OrderByDescending(g => g.Sum(l => l.Share)).Select(g => g.Key).ToList();
        var rows = profiles.Select(IReadOnlyList<string> (p) =>
        {
            var cpu = result.Cells.FirstOrDefault(c => c.Client == p.Client && c.Scenario == p.Scenario && c.MessageCount == p.MessageCount
                && c.PayloadBytes == p.PayloadBytes && c.Variant == p.Variant && c.OfferedRate == p.OfferedRate)?.Resources?.CpuMillisPerThousandMessages;
            return
            [
                Name(p.Scenario), p.Variant, Count(p.MessageCount), Count(p.PayloadBytes), p.OfferedRate is { } rate ? Count((long)rate) : "burst",
                p.Client, Count(p.Runs), Count(p.Samples), Value(cpu, "0.000"),
                .. layers.Select(name => p.Layers.FirstOrDefault(l => l.Name == name) is { } layer
                    ? cpu is { } perMessage ? $"{Value(layer.Share * perMessage, "0.000")} ({Value(layer.Share * 100, "0")} %)" : $"{Value(layer.Share * 100, "0")} %"
                    : "–"),
                $"{p.FlameGraphFile ?? "–"}, {p.FoldedFile ?? "–"}",
            ];
        }).ToList();
        return new ReportSection("Where the CPU went (--profile)",
        [
            new ReportParagraph("Sampled with perf inside the timed sections of the measured runs only (their figures above include the sampling's "
                + "cost). Each sample counts for the layer of its innermost frame; a C library's function (malloc, memcpy) counts for the layer that "
                + "called it; the kernel counts as itself. A layer's figure is CPU µs per record (its share of the samples × the client's CPU per "
                + "record), its share in parentheses. .NET runtime and GC = CoreCLR, its JIT and collector and the interop stubs; unnamed JIT code = "
                + "compiled code no map names (the JVM's, for java clients). Reference tools run in processes of their own and are not sampled."),
            new ReportTable(
            [
                Left("scenario"), Left("variant"), Right("messages"), Right("payload B"), Right("offered msg/s"), Left("client"), Right("runs"),
                Right("samples"), Right("CPU µs/msg"), .. layers.Select(Right), Left("flame graph, folded stacks"),
            ], rows),
        ]);
    }

    private static string Signed(double value) => (value >= 0 ? "+" : "−") + Value(Math.Abs(value), "0.000");

    private static string Name(ScenarioKind kind) => kind.ToString().ToLowerInvariant();
}
