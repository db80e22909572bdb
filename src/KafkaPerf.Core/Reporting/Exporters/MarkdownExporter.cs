using System.Globalization;
using KafkaPerf.Statistics;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>
/// The seed-style tables: per scenario and settings variant, one table per candidate against the baseline with
/// rows = message counts, columns = payload sizes and cells "mean ratio % (SD ratio %)"; then the verdicts with
/// their confidence intervals, the per-client statistics, the environment and every warning.
/// </summary>
public sealed class MarkdownExporter : ResultExporterBase
{
    /// <inheritdoc />
    public override string Format => "md";

    /// <inheritdoc />
    public override string FileExtension => "md";

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        var plan = result.Plan;
        var env = result.Environment;
        writer.Write("# KafkaPerf results\n\n");
        if (result.Cancelled) writer.Write("> **Cancelled**: this result holds only the runs done before the cancellation.\n\n");
        if (result.AbortReason is { } abort) writer.Write($"> **Stopped early**: {abort}. This result holds the runs done until then.\n\n");
        if (result.InProgress) writer.Write($"> **In progress**: written while the plan was still running, after {result.Runs.Count} of {plan.TotalRuns} runs.\n\n");
        writer.Write($"- Started {result.StartedAtUtc.ToString("u", CultureInfo.InvariantCulture)}, finished {result.FinishedAtUtc.ToString("u", CultureInfo.InvariantCulture)}; KafkaPerf {env.ToolVersion}\n");
        writer.Write($"- {env.Runtime}{(env.GarbageCollector is null ? string.Empty : $" ({env.GarbageCollector} GC)")} on {env.Os} ({env.Architecture}), {env.ProcessorCount} CPUs ({env.ProcessorName}), machine {env.MachineName}\n");
        var brokerFacts = new[] { env.BrokerVersion is null ? null : $"Kafka {env.BrokerVersion}", env.BrokerDescription }.OfType<string>().ToList();
        writer.Write($"- Broker: {env.BootstrapServers ?? "none"}{(brokerFacts.Count == 0 ? string.Empty : $" ({string.Join(", ", brokerFacts)})")}\n");
        string warmup = plan.IsRate ? $" at a rate, each after a {F(plan.LoadWarmup.TotalSeconds, "0.###")} s warm-up at the same rate" : plan.Warmup ? " after 1 excluded warm-up" : string.Empty;
        writer.Write($"- Plan: {plan.Repeat} measured runs per client and cell{warmup}, "
            + $"{plan.Order.ToString().ToLowerInvariant()} order, seed {F(plan.Seed)}, {plan.Payload.ToString().ToLowerInvariant()} payload, "
            + $"{PartitionsText(plan)}, replication {F(plan.ReplicationFactorFor(env.Brokers))}"
            + $"{(plan.MinInSyncReplicas is { } minIsr ? $" (min.insync.replicas {F(minIsr)})" : string.Empty)}, tolerance ±{F(plan.Tolerance * 100, "0.#")} %\n");
        if (result.ClusterWarmup is { } clusterWarmup) writer.Write($"- Cluster warm-up before the first run (in no figure): {clusterWarmup}\n");
        writer.Write('\n');

        writer.Write("| client | library version | capabilities | runs on |\n|---|---|---|---|\n");
        foreach (var client in result.Clients)
        {
            var details = client.Details is { Count: > 0 } d ? string.Join("; ", d.Select(p => $"{p.Key}: {p.Value}")) : "–";
            writer.Write($"| {client.Name} | {client.LibraryVersion} | {client.Capabilities} | {Escape(details)} |\n");
        }
        writer.Write('\n');

        WriteRateSearches(result, writer);
        WriteRatioTables(result, writer);
        WriteLoad(result, writer);
        WriteStatistics(result, writer);
        WriteResources(result, writer);
        WriteWorkers(result, writer);

        if (result.Warnings.Count > 0)
        {
            writer.Write("## Warnings\n\n");
            foreach (var warning in result.Warnings) writer.Write($"- {warning}\n");
            writer.Write('\n');
        }
        var failures = result.Runs.Where(r => !r.Succeeded).ToList();
        if (failures.Count > 0)
        {
            writer.Write("## Failed runs\n\n| run | client | scenario | messages | payload B | error |\n|---:|---|---|---:|---:|---|\n");
            foreach (var run in failures)
                writer.Write($"| {F(run.Sequence)} | {run.Client} | {Name(run.Scenario)} | {F(run.MessageCount)} | {F(run.PayloadBytes)} | {Escape(run.Error)} |\n");
            writer.Write('\n');
        }
    }

    private static void WriteRatioTables(BenchmarkResult result, TextWriter writer)
    {
        var plan = result.Plan;
        // At a rate the schedule fixes the elapsed time: those cells are compared on response time (the Load section).
        foreach (var group in result.Comparisons.Where(c => c.OfferedRate is null).GroupBy(c => (c.Scenario, c.Variant, c.Candidate, c.Baseline)))
        {
            var (scenario, variant, candidate, baseline) = group.Key;
            writer.Write($"## {Title(scenario)} · {variant} — {candidate} vs {baseline}\n\n");
            writer.Write($"Elapsed time, mean ratio % (SD ratio %), {candidate}/{baseline} × 100: below 100 % {candidate} is faster.\n\n");
            writer.Write("| messages \\ payload |");
            foreach (var size in plan.PayloadSizes) writer.Write($" {F(size)} B |");
            writer.Write("\n|---:|");
            foreach (var _ in plan.PayloadSizes) writer.Write("---:|");
            writer.Write('\n');
            foreach (var messages in plan.MessageCounts)
            {
                writer.Write($"| {F(messages)} |");
                foreach (var size in plan.PayloadSizes)
                {
                    var c = group.FirstOrDefault(x => x.MessageCount == messages && x.PayloadBytes == size);
                    writer.Write(c is null ? " – |" : $" {F(c.ElapsedSeconds.MeanRatioPercent)} ({F(c.ElapsedSeconds.StandardDeviationRatioPercent)}) |");
                }
                writer.Write('\n');
            }
            var first = group.First().ElapsedSeconds;
            writer.Write(first.VerdictBasis == "shift"
                ? $"\nVerdicts on elapsed time: the robust ratio (Hodges–Lehmann, about the ratio of medians) with its {F(first.Confidence * 100, "0")} % confidence interval; on par when the {F((1 - (2 * (1 - first.Confidence))) * 100, "0")} % interval lies within ±{F(first.Tolerance * 100, "0")} %:\n\n"
                : $"\nVerdicts on elapsed time (ratio of means with its {F(first.Confidence * 100, "0")} % confidence interval):\n\n");
            writer.Write("| messages | payload B | mean ratio % | robust ratio % | CI low % | CI high % | CV ratio % | verdict |\n|---:|---:|---:|---:|---:|---:|---:|---|\n");
            foreach (var c in group)
            {
                var e = c.ElapsedSeconds;
                bool shift = e.VerdictBasis == "shift";
                writer.Write($"| {F(c.MessageCount)} | {F(c.PayloadBytes)} | {F(e.MeanRatioPercent)} | {F(e.ShiftRatio * 100)} | {F((shift ? e.ShiftRatioLow : e.MeanRatioLow) * 100)} | {F((shift ? e.ShiftRatioHigh : e.MeanRatioHigh) * 100)} | {F(e.CoefficientOfVariationRatioPercent)} | {VerdictText(e.Verdict, candidate)} |\n");
            }
            writer.Write('\n');
        }
    }

    /// <summary>The highest sustainable rate of each client and cell (<c>find-rate</c>), then every probe.</summary>
    private static void WriteRateSearches(BenchmarkResult result, TextWriter writer)
    {
        if (result.RateSearches is not { Count: > 0 } searches) return;
        writer.Write("## Highest sustainable rate\n\n");
        writer.Write("The highest offered rate at which every goal held on response time (measured from when each record was due) and every run sent within 1 % of the offered rate; "
            + "the true limit lies between the last rate that held and the first that failed.\n\n");
        writer.Write("| scenario | variant | client | payload B | goal | held at msg/s | failed at msg/s | response p50 µs | p99 µs | p99.9 µs | probes | conclusion |\n");
        writer.Write("|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|\n");
        foreach (var s in searches)
        {
            var atHeld = s.Probes.Where(p => p.Held && p.OfferedRate == s.HighestHeld).Select(p => p.ResponseTime).FirstOrDefault();
            writer.Write($"| {Name(s.Scenario)} | {s.Variant} | {s.Client} | {F(s.PayloadBytes)} | {Escape(string.Join(", ", s.Goals))} | {F(s.HighestHeld, "0")} | {F(s.LowestFailed, "0")} "
                + $"| {F(atHeld?.P50Micros, "0.0")} | {F(atHeld?.P99Micros, "0.0")} | {F(atHeld?.P999Micros, "0.0")} | {F(s.Probes.Count)} | {Escape(s.Conclusion)} |\n");
        }
        writer.Write("\nEvery probe, in the order it ran:\n\n| client | scenario | payload B | offered msg/s | achieved msg/s | response p50 µs | p99 µs | p99.9 µs | held | why |\n|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        foreach (var s in searches)
        {
            foreach (var p in s.Probes)
            {
                writer.Write($"| {s.Client} | {Name(s.Scenario)} | {F(s.PayloadBytes)} | {F(p.OfferedRate, "0")} | {F(p.AchievedRate, "0")} | {F(p.ResponseTime?.P50Micros, "0.0")} "
                    + $"| {F(p.ResponseTime?.P99Micros, "0.0")} | {F(p.ResponseTime?.P999Micros, "0.0")} | {(p.Held ? "yes" : "no")} | {Escape(p.Reason)} |\n");
            }
        }
        writer.Write('\n');
    }

    /// <summary>Cells of load runs (a rate, or several producers or consumers): the rate offered and achieved, and
    /// the three latencies, merged over the measured runs.</summary>
    private static void WriteLoad(BenchmarkResult result, TextWriter writer)
    {
        var cells = result.Cells.Where(c => c.OfferedRate is not null || c.ServiceTime is not null).ToList();
        if (cells.Count == 0) return;
        writer.Write("## Load\n\n");
        writer.Write("Runs at a rate: response time from when each record was due (it includes every delay of the sender, so a stall cannot hide), "
            + "service time from when it was actually sent, send delay = actual − intended send time; produce: to the acknowledgement, roundtrip: to the arrival. "
            + "Percentiles merged from every measured run's histogram; achieved = the median run's measured records over the time from the first one's due time to the last send. "
            + "A burst with several producers or consumers has no due time: its latency is the service time.\n\n");
        writer.Write("| scenario | variant | client | payload B | offered msg/s | achieved msg/s | runs | failed | response p50 µs | p99 µs | p99.9 µs | max µs | service p50 µs | p99 µs | max µs | send delay p99 µs | max µs | lost | dup |\n");
        writer.Write("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        foreach (var c in cells)
        {
            writer.Write($"| {Name(c.Scenario)} | {c.Variant} | {c.Client} | {F(c.PayloadBytes)} | {F(c.OfferedRate, "0")} | {F(c.AchievedRate?.Median, "0")} | {F(c.Runs)} | {F(c.FailedRuns)} "
                + $"| {F(c.ResponseTime?.P50Micros, "0.0")} | {F(c.ResponseTime?.P99Micros, "0.0")} | {F(c.ResponseTime?.P999Micros, "0.0")} | {F(c.ResponseTime?.MaxMicros, "0.0")} "
                + $"| {F(c.ServiceTime?.P50Micros, "0.0")} | {F(c.ServiceTime?.P99Micros, "0.0")} | {F(c.ServiceTime?.MaxMicros, "0.0")} "
                + $"| {F(c.SendDelay?.P99Micros, "0.0")} | {F(c.SendDelay?.MaxMicros, "0.0")} | {F(c.Lost)} | {F(c.Duplicates)} |\n");
        }
        writer.Write('\n');
        var comparisons = result.Comparisons.Where(c => c.ResponseTimeP99 is not null).ToList();
        if (comparisons.Count == 0) return;
        writer.Write("p99 response time of each run against the baseline's (robust ratio: below 100 % the candidate answers sooner):\n\n");
        writer.Write("| scenario | variant | payload B | offered msg/s | candidate | baseline | robust ratio % | 95 % CI | verdict |\n|---|---|---:|---:|---|---|---:|---|---|\n");
        foreach (var c in comparisons)
        {
            var p = c.ResponseTimeP99!;
            writer.Write($"| {Name(c.Scenario)} | {c.Variant} | {F(c.PayloadBytes)} | {F(c.OfferedRate, "0")} | {c.Candidate} | {c.Baseline} | {F(p.ShiftRatio * 100, "0.0")} "
                + $"| {F(p.ShiftRatioLow * 100, "0.0")}–{F(p.ShiftRatioHigh * 100, "0.0")} | {VerdictText(p.Verdict, c.Candidate)} |\n");
        }
        writer.Write('\n');
    }

    /// <summary>Each worker's part when workers ran the plan: every run's figures above are the sum of these parts.</summary>
    private static void WriteWorkers(BenchmarkResult result, TextWriter writer)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Workers is { Count: > 0 }).ToList();
        if (runs.Count == 0) return;
        writer.Write("## Workers\n\n");
        writer.Write("Every run above ran on these workers together, each with its share of the records, rate and producers; the run's counts are the "
            + "sum of their parts and its percentiles come from their histograms added. Per worker, over the measured runs: its median rate "
            + "(records over its own timed section, or the rate it achieved) and its median p99 latency on its own clock.\n\n");
        writer.Write("| scenario | variant | client | payload B | offered msg/s | worker | host | runs | failed | records | median msg/s | median p99 µs |\n");
        writer.Write("|---|---|---|---:|---:|---|---|---:|---:|---:|---:|---:|\n");
        foreach (var cell in runs.GroupBy(r => (r.Scenario, r.Variant, r.Client, r.PayloadBytes, r.OfferedRate)))
        {
            foreach (var worker in cell.SelectMany(r => r.Workers!).GroupBy(w => w.Worker, StringComparer.Ordinal))
            {
                var parts = worker.ToList();
                var ok = parts.Where(p => p.Error is null).ToList();
                var rates = ok.Select(p => p.AchievedRate ?? (p.ElapsedSeconds > 0 ? p.Sent / p.ElapsedSeconds : double.NaN)).Where(double.IsFinite).ToList();
                var p99 = ok.Select(p => p.Latency?.P99Micros).OfType<double>().ToList();
                var (scenario, variant, client, payload, rate) = cell.Key;
                writer.Write($"| {Name(scenario)} | {variant} | {client} | {F(payload)} | {F(rate, "0")} | {Escape(worker.Key)} | {Escape(parts[0].Host ?? "–")} | {F(parts.Count)} "
                    + $"| {F(parts.Count - ok.Count)} | {F(parts.Sum(p => p.Records))} | {F(Median(rates), "0")} | {F(Median(p99), "0.0")} |\n");
            }
        }
        writer.Write('\n');
    }

    private static double? Median(List<double> values)
    {
        if (values.Count == 0) return null;
        values.Sort();
        return values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
    }

    private static void WriteStatistics(BenchmarkResult result, TextWriter writer)
    {
        writer.Write("## Per-client statistics\n\n");
        writer.Write("Elapsed seconds over the measured runs (warm-ups and failed runs excluded); CV = SD / mean; trimmed = min and max dropped; latency percentiles merged from every run's histogram.\n\n");
        writer.Write("| scenario | variant | client | messages | payload B | runs | failed | mean s | SD s | CV % | median s | trimmed mean s | median msg/s | median MB/s | p50 µs | p99 µs | max µs | lost | dup |\n");
        writer.Write("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        foreach (var c in result.Cells)
        {
            var e = c.ElapsedSeconds;
            writer.Write($"| {Name(c.Scenario)} | {c.Variant} | {c.Client} | {F(c.MessageCount)} | {F(c.PayloadBytes)} | {F(c.Runs)} | {F(c.FailedRuns)} "
                + $"| {F(e.Mean, "0.000000")} | {(e.Count < 2 ? "–" : F(e.StandardDeviation, "0.000000"))} | {(e.Count < 2 ? "–" : F(e.CoefficientOfVariation * 100))} | {F(e.Median, "0.000000")} | {F(e.TrimmedMean, "0.000000")} "
                + $"| {F(c.MessagesPerSecond.Median, "0")} | {F(c.MegabytesPerSecond.Median)} "
                + $"| {F(c.Latency?.P50Micros, "0.0")} | {F(c.Latency?.P99Micros, "0.0")} | {F(c.Latency?.MaxMicros, "0.0")} | {F(c.Lost)} | {F(c.Duplicates)} |\n");
        }
        writer.Write('\n');
    }

    private static void WriteResources(BenchmarkResult result, TextWriter writer)
    {
        if (!result.Cells.Any(c => c.Resources is not null)) return;
        writer.Write("## Resources\n\n");
        writer.Write("Medians over the measured runs, each read at the edges of the timed section. Client CPU = user + system time of this process "
            + "(the .NET client's, or the in-process JVM's and .NET's together for java clients); % core = CPU time / elapsed time; "
            + "GC = .NET collections per run (gen0/gen1/gen2) and alloc = .NET bytes allocated per message; runtime = the client's own runtime (the JVM): "
            + "its collection time per run and heap in use at the end; counters = the client's own counters per message; broker CPU = the embedded broker's process; "
            + "disk = the topic's log segments after the run (MB = 10^6 bytes) and per payload byte sent. – = not measured (e.g. broker figures on an external cluster).\n\n");
        writer.Write("| scenario | variant | client | messages | payload B | median msg/s | client CPU s | user / sys s | CPU ms per 1k msg | % core | alloc B/msg | GC 0/1/2 | runtime GC ms | runtime heap MB | counters/msg | broker CPU s | broker CPU ms per 1k msg | disk MB | disk B per payload B |\n");
        writer.Write("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n");
        foreach (var c in result.Cells)
        {
            var r = c.Resources;
            var counters = r?.CountersPerMessage is { Count: > 0 } perMessage
                ? string.Join(", ", perMessage.Select(p => $"{p.Key} {F(p.Value, "0.###")}"))
                : "–";
            writer.Write($"| {Name(c.Scenario)} | {c.Variant} | {c.Client} | {F(c.MessageCount)} | {F(c.PayloadBytes)} | {F(c.MessagesPerSecond.Median, "0")} "
                + $"| {F(r?.CpuSeconds, "0.000")} | {(r is null ? "–" : $"{F(r.CpuUserSeconds, "0.000")} / {F(r.CpuSystemSeconds, "0.000")}")} "
                + $"| {F(r?.CpuMillisPerThousandMessages, "0.000")} | {F(r?.CpuPercentOfCore, "0")} | {F(r?.AllocatedBytesPerMessage, "0.0")} "
                + $"| {(r is null ? "–" : $"{F(r.Gen0Collections, "0.#")}/{F(r.Gen1Collections, "0.#")}/{F(r.Gen2Collections, "0.#")}")} "
                + $"| {F(r?.RuntimeGcMillis, "0")} | {F(r?.RuntimeHeapUsedBytes / 1e6, "0.0")} | {Escape(counters)} "
                + $"| {F(r?.BrokerCpuSeconds, "0.000")} | {F(r?.BrokerCpuMillisPerThousandMessages, "0.000")} "
                + $"| {F(r?.TopicBytesOnDisk / 1e6, "0.000")} | {F(r?.DiskBytesPerPayloadByte, "0.000")} |\n");
        }
        writer.Write('\n');
    }

    private static string VerdictText(Verdict verdict, string candidate) => verdict switch
    {
        Verdict.Faster => $"{candidate} faster",
        Verdict.Slower => $"{candidate} slower",
        Verdict.OnPar => "on par",
        _ => "inconclusive",
    };

    private static string Title(Scenarios.ScenarioKind kind) => kind.ToString();

    private static string Name(Scenarios.ScenarioKind kind) => kind.ToString().ToLowerInvariant();

    private static string Escape(string? text) => (text ?? string.Empty).Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");

    private static string F(long value) => value.ToString("N0", CultureInfo.InvariantCulture).Replace(",", " ", StringComparison.Ordinal);

    private static string F(double? value, string format = "0.00") =>
        value is not { } v || double.IsNaN(v) ? "–" : double.IsInfinity(v) ? "∞" : v.ToString(format, CultureInfo.InvariantCulture);

    /// <summary>The partitions of the runs' topics: the variants' own when they set them (<c>--partitions</c> sweeps), the
    /// plan's otherwise.</summary>
    private static string PartitionsText(Plans.BenchmarkPlan plan)
    {
        var counts = plan.SettingsVariants.Select(v => v.Partitions ?? plan.Partitions).Distinct().Order().ToList();
        return counts.Count == 1 ? $"{F(counts[0])} partition(s)" : $"{string.Join(", ", counts.Select(c => F(c)))} partitions (per variant)";
    }
}
