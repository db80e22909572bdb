using System.Globalization;
using System.Runtime.CompilerServices;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;
using KafkaPerf.Statistics;
using static KafkaPerf.Reporting.Tables.ExactCells;
using static KafkaPerf.Reporting.Tables.ReportColumn;
using static KafkaPerf.Reporting.Tables.ReportFigures;

namespace KafkaPerf.Reporting.Tables;

/// <summary>
/// The tables of a result, built once for every format that shows them. <see cref="Document"/> is the human report
/// (the console, the Markdown and the HTML page): the environment, plan and clients; per scenario and settings variant,
/// one table per candidate against the baseline with rows = message counts, columns = payload sizes and cells
/// "mean ratio % (SD ratio %)", then the verdicts with their confidence intervals; the rate searches, load and
/// per-client statistics, resources, workers, warnings and failed runs. <see cref="Runs"/> is the table for other tools
/// (the CSV): one row per run, warm-ups and failures included (flagged), every figure in full precision.
/// </summary>
public static class ResultTables
{
    // A result is immutable: the console, the Markdown file and the HTML page print the same document, built once per
    // result (it lives as long as the result does).
    private static readonly ConditionalWeakTable<BenchmarkResult, ReportDocument> Documents = [];

    /// <summary>The human report of a result.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The document: its preamble, then a section per comparison and per kind of table the result has; built once
    /// per result, however often it is asked for.</returns>
    public static ReportDocument Document(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return Documents.GetValue(result, Build);
    }

    private static ReportDocument Build(BenchmarkResult result) =>
        new ReportDocument("KafkaPerf results", Preamble(result),
            [.. RateSearches(result), .. Ratios(result), .. Load(result), .. FaultTables.Section(result), .. RebalanceTables.Section(result), .. TransactionTables.Section(result), .. BacklogTables.Section(result), .. BreakdownTables.Section(result), PerClientStatistics(result), .. StartUpTables.Section(result), .. Resources(result), .. CpuTables.Sections(result), .. Workers(result),
             .. Warnings(result), .. FailedRuns(result)]);

    /// <summary>The columns of <see cref="Runs"/>: a run's identity, its figures and resources, its load figures, its error.</summary>
    public static IReadOnlyList<ReportColumn> RunColumns { get; } =
    [
        Right("sequence"), Left("client"), Left("scenario"), Right("messageCount"), Right("payloadBytes"), Left("variant"), Right("repetition"),
        Left("warmup"), Left("topic"), Right("elapsedSeconds"), Right("messagesPerSecond"), Right("megabytesPerSecond"), Right("sent"),
        Right("delivered"), Right("received"), Right("lost"), Right("notVerified"), Left("notVerifiedReason"), Right("duplicates"), Right("unexpected"), Right("payloadMismatches"), Left("prefetch"),
        Left("succeeded"), Right("latencyP50Micros"), Right("latencyP99Micros"), Right("latencyMaxMicros"),
        Right("cpuUserSeconds"), Right("cpuSystemSeconds"), Right("gen0Collections"), Right("gen1Collections"), Right("gen2Collections"), Right("allocatedBytes"),
        Right("rssGrowthBytes"), Right("runtimeGcMillis"), Right("runtimeHeapUsedBytes"), Right("brokerCpuSeconds"), Right("topicBytesOnDisk"), Right("diskBytesPerPayloadByte"),
        Right("offeredRate"), Right("achievedRate"), Right("producers"), Right("consumers"), Right("warmupRecords"),
        Right("responseP50Micros"), Right("responseP99Micros"), Right("responseP999Micros"), Right("responseMaxMicros"),
        Right("serviceP50Micros"), Right("serviceP99Micros"), Right("serviceP999Micros"), Right("serviceMaxMicros"), Right("sendDelayP99Micros"), Right("sendDelayMaxMicros"),
        Right("firstRecordSeconds"), Right("messagesPerSecondAfterFirst"),
        Left("error"),
    ];

    /// <summary>Every run of a result, warm-ups and failures included (flagged), for other tools to process.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The table: <see cref="RunColumns"/>, and a <see cref="RunRow"/> per run in the order they ran.</returns>
    public static ReportTable Runs(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return new ReportTable(RunColumns, result.Runs.Select(RunRow));
    }

    /// <summary>One run's row of <see cref="Runs"/>: numbers in full (round-trip) precision with the invariant culture,
    /// empty when not measured; flags <c>true</c> or <c>false</c>.</summary>
    /// <param name="run">The run.</param>
    /// <returns>A cell per column of <see cref="RunColumns"/>.</returns>
    public static IReadOnlyList<string> RunRow(RunRecord run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var r = run.Resources;
        return
        [
            Number(run.Sequence), run.Client, Name(run.Scenario), Number(run.MessageCount), Number(run.PayloadBytes),
            run.Variant, Number(run.Repetition), Flag(run.IsWarmup), run.Topic,
            Number(run.ElapsedSeconds), Number(run.MessagesPerSecond), Number(run.MegabytesPerSecond),
            Number(run.Sent), Number(run.Delivered), Number(run.Received), Number(run.Lost), Number(run.NotVerified), run.NotVerifiedReason ?? string.Empty, Number(run.Duplicates),
            Number(run.Unexpected), Number(run.PayloadMismatches), Flag(run.PrefetchEnabled), Flag(run.Succeeded),
            Number(run.Latency?.P50Micros), Number(run.Latency?.P99Micros), Number(run.Latency?.MaxMicros),
            Number(r?.CpuUserSeconds), Number(r?.CpuSystemSeconds), Number(r?.Gen0Collections), Number(r?.Gen1Collections), Number(r?.Gen2Collections),
            Number(r?.AllocatedBytes), Number(r?.RssGrowthBytes), Number(r?.RuntimeGcMillis), Number(r?.RuntimeHeapUsedBytes), Number(r?.BrokerCpuSeconds),
            Number(r?.TopicBytesOnDisk), Number(r?.DiskBytesPerPayloadByte),
            Number(run.OfferedRate), Number(run.AchievedRate), Number(run.Producers), Number(run.Consumers), Number(run.WarmupRecords),
            Number(run.ResponseTime?.P50Micros), Number(run.ResponseTime?.P99Micros), Number(run.ResponseTime?.P999Micros), Number(run.ResponseTime?.MaxMicros),
            Number(run.ServiceTime?.P50Micros), Number(run.ServiceTime?.P99Micros), Number(run.ServiceTime?.P999Micros), Number(run.ServiceTime?.MaxMicros),
            Number(run.SendDelay?.P99Micros), Number(run.SendDelay?.MaxMicros),
            Number(run.FirstRecordSeconds), Number(run.MessagesPerSecondAfterFirst),
            run.Error ?? string.Empty,
        ];
    }

    private static List<ReportBlock> Preamble(BenchmarkResult result)
    {
        var plan = result.Plan;
        var env = result.Environment;
        var blocks = new List<ReportBlock>();
        if (result.Cancelled) blocks.Add(new ReportNote("Cancelled", "this result holds only the runs done before the cancellation."));
        if (result.AbortReason is { } abort) blocks.Add(new ReportNote("Stopped early", $"{abort}. This result holds the runs done until then."));
        if (result.InProgress) blocks.Add(new ReportNote("In progress", $"written while the plan was still running, after {result.Runs.Count} of {plan.TotalRuns} runs."));
        var brokerFacts = new[] { env.BrokerVersion is null ? null : $"Kafka {env.BrokerVersion}", env.BrokerDescription }.OfType<string>().ToList();
        string warmup = plan.IsRate ? $" at a rate, each after a {Value(plan.LoadWarmup.TotalSeconds, "0.###")} s warm-up at the same rate" : plan.Warmup ? " after 1 excluded warm-up" : string.Empty;
        var facts = new List<string>
        {
            $"Started {result.StartedAtUtc.ToString("u", CultureInfo.InvariantCulture)}, finished {result.FinishedAtUtc.ToString("u", CultureInfo.InvariantCulture)}; KafkaPerf {env.ToolVersion}",
            $"{env.Runtime}{(env.GarbageCollector is null ? string.Empty : $" ({env.GarbageCollector} GC)")} on {env.Os} ({env.Architecture}), {env.ProcessorCount} CPUs ({env.ProcessorName}), machine {env.MachineName}",
            $"Broker: {env.BootstrapServers ?? "none"}{(brokerFacts.Count == 0 ? string.Empty : $" ({string.Join(", ", brokerFacts)})")}",
            $"Plan: {plan.Repeat} measured run{(plan.Repeat == 1 ? string.Empty : "s")} per client and cell{warmup}, "
                + $"{plan.Order.ToString().ToLowerInvariant()} order, seed {Count(plan.Seed)}, {plan.Payload.ToString().ToLowerInvariant()} payload, "
                + $"{PartitionsText(plan)}, replication {Count(plan.ReplicationFactorFor(env.Brokers))}"
                + $"{(plan.MinInSyncReplicas is { } minIsr ? $" (min.insync.replicas {Count(minIsr)})" : string.Empty)}, tolerance ±{Value(plan.Tolerance * 100, "0.#")} %",
        };
        if (result.ClusterWarmup is { } clusterWarmup) facts.Add($"Cluster warm-up before the first run (in no figure): {clusterWarmup}");
        blocks.Add(new ReportList(facts));
        blocks.Add(new ReportTable([Left("client"), Left("library version"), Left("capabilities"), Left("runs on")],
            result.Clients.Select(string[] (client) =>
            [
                client.Name, client.LibraryVersion, client.Capabilities.ToString(),
                RunsOn(client),
            ])));
        return blocks;
    }

    /// <summary>What a client ran on, and where a client from outside the tool came from.</summary>
    private static string RunsOn(ClientInfo client)
    {
        var details = client.Details is { Count: > 0 } d ? string.Join("; ", d.Select(p => $"{p.Key}: {p.Value}")) : null;
        var origin = client.Origin is { } o ? $"from {o}" : null;
        return details is null && origin is null ? "–" : string.Join("; ", new[] { details, origin }.OfType<string>());
    }

    private static IEnumerable<ReportSection> Ratios(BenchmarkResult result)
    {
        var plan = result.Plan;
        // At a rate the schedule fixes the elapsed time: those cells are compared on response time (the Load section).
        foreach (var group in result.Comparisons.Where(c => c.OfferedRate is null).GroupBy(c => (c.Scenario, c.Variant, c.Candidate, c.Baseline)))
        {
            var (scenario, variant, candidate, baseline) = group.Key;
            var grid = new ReportTable([Right("messages \\ payload"), .. plan.PayloadSizes.Select(size => Right($"{Count(size)} B"))],
                plan.MessageCounts.Select(string[] (messages) =>
                [
                    Count(messages),
                    .. plan.PayloadSizes.Select(size => group.FirstOrDefault(x => x.MessageCount == messages && x.PayloadBytes == size) is { } c
                        ? $"{Percent(c.ElapsedSeconds.MeanRatio)} ({Percent(c.ElapsedSeconds.StandardDeviationRatioPercent / 100)})"
                        : "–"),
                ]));
            var first = group.First().ElapsedSeconds;
            var verdictsText = first.VerdictBasis == "shift"
                ? $"Verdicts on elapsed time: the robust ratio (Hodges–Lehmann, about the ratio of medians) with its {Value(first.Confidence * 100, "0")} % confidence interval; on par when the {Value((1 - (2 * (1 - first.Confidence))) * 100, "0")} % interval lies within ±{Value(first.Tolerance * 100, "0")} %:"
                : $"Verdicts on elapsed time (ratio of means with its {Value(first.Confidence * 100, "0")} % confidence interval):";
            var verdicts = new ReportTable(
                [Right("messages"), Right("payload B"), Right("mean ratio %"), Right("robust ratio %"), Right("CI low %"), Right("CI high %"), Right("CV ratio %"), Left("verdict")],
                group.Select(string[] (c) =>
                {
                    var e = c.ElapsedSeconds;
                    bool shift = e.VerdictBasis == "shift";
                    return
                    [
                        Count(c.MessageCount), Count(c.PayloadBytes), Percent(e.MeanRatio), Percent(e.ShiftRatio), Percent(shift ? e.ShiftRatioLow : e.MeanRatioLow),
                        Percent(shift ? e.ShiftRatioHigh : e.MeanRatioHigh), Percent(e.CoefficientOfVariationRatioPercent / 100),
                        ReportFigures.Verdict(e.Verdict, candidate) + StartUpTables.CaveatOf(result, c),
                    ];
                }));
            yield return new ReportSection($"{Title(scenario)} · {variant} — {candidate} vs {baseline}",
            [
                new ReportParagraph($"Elapsed time, mean ratio % (SD ratio %), {candidate}/{baseline} × 100: below 100 % {candidate} is faster."),
                grid,
                new ReportParagraph(verdictsText),
                verdicts,
            ]);
        }
    }

    /// <summary>The highest sustainable rate of each client and cell (<c>find-rate</c>), then every probe.</summary>
    private static IEnumerable<ReportSection> RateSearches(BenchmarkResult result)
    {
        if (result.RateSearches is not { Count: > 0 } searches) yield break;
        var highest = new ReportTable(
            [Left("scenario"), Left("variant"), Left("client"), Right("payload B"), Left("goal"), Right("held at msg/s"), Right("failed at msg/s"),
             Right("response p50 µs"), Right("p99 µs"), Right("p99.9 µs"), Right("probes"), Left("conclusion")],
            searches.Select(string[] (s) =>
            {
                var atHeld = s.Probes.Where(p => p.Held && p.OfferedRate == s.HighestHeld).Select(p => p.ResponseTime).FirstOrDefault();
                return
                [
                    Name(s.Scenario), s.Variant, s.Client, Count(s.PayloadBytes), string.Join(", ", s.Goals), Value(s.HighestHeld, "0"), Value(s.LowestFailed, "0"),
                    Value(atHeld?.P50Micros, "0.0"), Value(atHeld?.P99Micros, "0.0"), Value(atHeld?.P999Micros, "0.0"), Count(s.Probes.Count), s.Conclusion,
                ];
            }));
        var probes = new ReportTable(
            [Left("client"), Left("scenario"), Right("payload B"), Right("offered msg/s"), Right("achieved msg/s"), Right("response p50 µs"), Right("p99 µs"),
             Right("p99.9 µs"), Left("held"), Left("why")],
            searches.SelectMany(s => s.Probes.Select(string[] (p) =>
            [
                s.Client, Name(s.Scenario), Count(s.PayloadBytes), Value(p.OfferedRate, "0"), Value(p.AchievedRate, "0"), Value(p.ResponseTime?.P50Micros, "0.0"),
                Value(p.ResponseTime?.P99Micros, "0.0"), Value(p.ResponseTime?.P999Micros, "0.0"), p.Held ? "yes" : "no", p.Reason,
            ])));
        yield return new ReportSection("Highest sustainable rate",
        [
            new ReportParagraph("The highest offered rate at which every goal held on response time (measured from when each record was due) and every run sent within 1 % of the offered rate; "
                + "the true limit lies between the last rate that held and the first that failed."),
            highest,
            new ReportParagraph("Every probe, in the order it ran:"),
            probes,
        ]);
    }

    /// <summary>Cells of load runs (a rate, or several producers or consumers): the rate offered and achieved, and
    /// the three latencies, merged over the measured runs.</summary>
    private static IEnumerable<ReportSection> Load(BenchmarkResult result)
    {
        var cells = result.Cells.Where(c => c.OfferedRate is not null || c.ServiceTime is not null).ToList();
        if (cells.Count == 0) yield break;
        var blocks = new List<ReportBlock>
        {
            new ReportParagraph("Runs at a rate: response time from when each record was due (it includes every delay of the sender, so a stall cannot hide), "
                + "service time from when it was actually sent, send delay = actual − intended send time; produce: to the acknowledgement, roundtrip: to the arrival. "
                + "Percentiles merged from every measured run's histogram; achieved = the median run's measured records over the time from the first one's due time to the last send. "
                + "A burst with several producers or consumers has no due time: its latency is the service time." + NothingReadBack(cells)),
            new ReportTable(
                [Left("scenario"), Left("variant"), Left("client"), Right("payload B"), Right("offered msg/s"), Right("achieved msg/s"), Right("runs"), Right("failed"),
                 Right("response p50 µs"), Right("p99 µs"), Right("p99.9 µs"), Right("max µs"), Right("service p50 µs"), Right("p99 µs"), Right("max µs"),
                 Right("send delay p99 µs"), Right("max µs"), Right("lost"), Right("dup")],
                cells.Select(string[] (c) =>
                [
                    Name(c.Scenario), c.Variant, c.Client, Count(c.PayloadBytes), Value(c.OfferedRate, "0"), Value(c.AchievedRate?.Median, "0"), Count(c.Runs), Count(c.FailedRuns),
                    Value(c.ResponseTime?.P50Micros, "0.0"), Value(c.ResponseTime?.P99Micros, "0.0"), Value(c.ResponseTime?.P999Micros, "0.0"), Value(c.ResponseTime?.MaxMicros, "0.0"),
                    Value(c.ServiceTime?.P50Micros, "0.0"), Value(c.ServiceTime?.P99Micros, "0.0"), Value(c.ServiceTime?.MaxMicros, "0.0"),
                    Value(c.SendDelay?.P99Micros, "0.0"), Value(c.SendDelay?.MaxMicros, "0.0"), Lost(c, result.Plan), Duplicates(c),
                ])),
        };
        var comparisons = result.Comparisons.Where(c => c.ResponseTimeP99 is not null).ToList();
        if (comparisons.Count > 0)
        {
            blocks.Add(new ReportParagraph("p99 response time of each run against the baseline's (robust ratio: below 100 % the candidate answers sooner):"));
            blocks.Add(new ReportTable(
                [Left("scenario"), Left("variant"), Right("payload B"), Right("offered msg/s"), Left("candidate"), Left("baseline"), Right("robust ratio %"), Left("95 % CI"), Left("verdict")],
                comparisons.Select(string[] (c) =>
                {
                    var p = c.ResponseTimeP99!;
                    return
                    [
                        Name(c.Scenario), c.Variant, Count(c.PayloadBytes), Value(c.OfferedRate, "0"), c.Candidate, c.Baseline, Percent(p.ShiftRatio),
                        $"{Percent(p.ShiftRatioLow)}–{Percent(p.ShiftRatioHigh)}", ReportFigures.Verdict(p.Verdict, c.Candidate),
                    ];
                })));
        }
        yield return new ReportSection("Load", blocks);
    }

    /// <summary>Each worker's part when workers ran the plan: every run's figures above are the sum of these parts.</summary>
    private static IEnumerable<ReportSection> Workers(BenchmarkResult result)
    {
        var runs = result.Runs.Where(r => !r.IsWarmup && r.Workers is { Count: > 0 }).ToList();
        if (runs.Count == 0) yield break;
        var rows = new List<string[]>();
        foreach (var cell in runs.GroupBy(r => (r.Scenario, r.Variant, r.Client, r.PayloadBytes, r.OfferedRate)))
        {
            foreach (var worker in cell.SelectMany(r => r.Workers!).GroupBy(w => w.Worker, StringComparer.Ordinal))
            {
                var parts = worker.ToList();
                var ok = parts.Where(p => p.Error is null).ToList();
                var rates = ok.Select(p => p.AchievedRate ?? (p.ElapsedSeconds > 0 ? p.Sent / p.ElapsedSeconds : double.NaN)).Where(double.IsFinite).ToList();
                var p99 = ok.Select(p => p.Latency?.P99Micros).OfType<double>().ToList();
                var (scenario, variant, client, payload, rate) = cell.Key;
                rows.Add(
                [
                    Name(scenario), variant, client, Count(payload), Value(rate, "0"), worker.Key, parts[0].Host ?? "–", Count(parts.Count),
                    Count(parts.Count - ok.Count), Count(parts.Sum(p => p.Records)), Value(Median(rates), "0"), Value(Median(p99), "0.0"),
                ]);
            }
        }
        yield return new ReportSection("Workers",
        [
            new ReportParagraph("Every run above ran on these workers together, each with its share of the records, rate and producers; the run's counts are the "
                + "sum of their parts and its percentiles come from their histograms added. Per worker, over the measured runs: its median rate "
                + "(records over its own timed section, or the rate it achieved) and its median p99 latency on its own clock."),
            new ReportTable(
                [Left("scenario"), Left("variant"), Left("client"), Right("payload B"), Right("offered msg/s"), Left("worker"), Left("host"), Right("runs"),
                 Right("failed"), Right("records"), Right("median msg/s"), Right("median p99 µs")],
                rows),
        ]);
    }

    private static double? Median(List<double> values)
    {
        if (values.Count == 0) return null;
        values.Sort();
        return values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
    }

    private static ReportSection PerClientStatistics(BenchmarkResult result) => new("Per-client statistics",
    [
        new ReportParagraph("Elapsed seconds over the measured runs (warm-ups and failed runs excluded); CV = SD / mean; trimmed = min and max dropped; latency percentiles merged from every run's histogram."
            + NothingReadBack(result.Cells)),
        new ReportTable(
            [Left("scenario"), Left("variant"), Left("client"), Right("messages"), Right("payload B"), Right("runs"), Right("failed"), Right("mean s"), Right("SD s"),
             Right("CV %"), Right("median s"), Right("trimmed mean s"), Right("median msg/s"), Right("median MB/s"), Right("p50 µs"), Right("p99 µs"), Right("max µs"),
             Right("lost"), Right("dup")],
            result.Cells.Select(string[] (c) =>
            {
                var e = c.ElapsedSeconds;
                return
                [
                    Name(c.Scenario), c.Variant, c.Client, Count(c.MessageCount), Count(c.PayloadBytes), Count(c.Runs), Count(c.FailedRuns),
                    Value(e.Mean, "0.000000"), e.Count < 2 ? "–" : Value(e.StandardDeviation, "0.000000"), e.Count < 2 ? "–" : Percent(e.CoefficientOfVariation),
                    Value(e.Median, "0.000000"), Value(e.TrimmedMean, "0.000000"), Value(c.MessagesPerSecond.Median, "0"), Value(c.MegabytesPerSecond.Median),
                    Value(c.Latency?.P50Micros, "0.0"), Value(c.Latency?.P99Micros, "0.0"), Value(c.Latency?.MaxMicros, "0.0"), Lost(c, result.Plan), Duplicates(c),
                ];
            })),
    ]);

    private static IEnumerable<ReportSection> Resources(BenchmarkResult result)
    {
        if (!result.Cells.Any(c => c.Resources is not null)) yield break;
        // The shaping proxies take CPU on the same machine: a column of their own beside the clients' and the broker's,
        // in plans that have a shaped network only.
        bool proxy = result.Cells.Any(c => c.Resources?.ProxyCpuSeconds is not null);
        yield return new ReportSection("Resources",
        [
            new ReportParagraph("Medians over the measured runs, each read at the edges of the timed section. Client CPU = user + system time of this process "
                + "(the .NET client's, or the in-process JVM's and .NET's together for java clients); % core = CPU time / elapsed time; "
                + "GC = .NET collections per run (gen0/gen1/gen2) and alloc = .NET bytes allocated per message; RSS growth = how much the process's resident memory "
                + "(native memory included: librdkafka's queues, the JVM) grew during the timed section; runtime = the client's own runtime (the JVM): "
                + "its collection time per run and heap in use at the end; counters = the client's own counters per message; broker CPU = the embedded broker's process; "
                + "disk = the topic's log segments after the run (MB = 10^6 bytes) and per payload byte sent"
                + (proxy ? "; proxy CPU = every shaping proxy thread's (--network), on the same cores and in this process: user / sys include it, client CPU leaves it out" : string.Empty)
                + ". – = not measured (e.g. broker figures on an external cluster)."),
            new ReportTable(
                [Left("scenario"), Left("variant"), Left("client"), Right("messages"), Right("payload B"), Right("median msg/s"), Right("client CPU s"), Right("user / sys s"),
                 Right("CPU ms per 1k msg"), Right("% core"), Right("alloc B/msg"), Right("GC 0/1/2"), Right("RSS growth MB"), Right("runtime GC ms"), Right("runtime heap MB"), Left("counters/msg"),
                 Right("broker CPU s"), Right("broker CPU ms per 1k msg"), Right("disk MB"), Right("disk B per payload B"), .. proxy ? [Right("proxy CPU s")] : Array.Empty<ReportColumn>()],
                result.Cells.Select(string[] (c) =>
                {
                    var r = c.Resources;
                    var counters = r?.CountersPerMessage is { Count: > 0 } perMessage
                        ? string.Join(", ", perMessage.Select(p => $"{p.Key} {Value(p.Value, "0.###")}"))
                        : "–";
                    return
                    [
                        Name(c.Scenario), c.Variant, c.Client, Count(c.MessageCount), Count(c.PayloadBytes), Value(c.MessagesPerSecond.Median, "0"),
                        Value(r?.CpuSeconds, "0.000"), r is null ? "–" : $"{Value(r.CpuUserSeconds, "0.000")} / {Value(r.CpuSystemSeconds, "0.000")}",
                        Value(r?.CpuMillisPerThousandMessages, "0.000"), Value(r?.CpuPercentOfCore, "0"), Value(r?.AllocatedBytesPerMessage, "0.0"),
                        r is null ? "–" : $"{Value(r.Gen0Collections, "0.#")}/{Value(r.Gen1Collections, "0.#")}/{Value(r.Gen2Collections, "0.#")}",
                        Value(r?.RssGrowthBytes / 1e6, "0.0"), Value(r?.RuntimeGcMillis, "0"), Value(r?.RuntimeHeapUsedBytes / 1e6, "0.0"), counters,
                        Value(r?.BrokerCpuSeconds, "0.000"), Value(r?.BrokerCpuMillisPerThousandMessages, "0.000"),
                        Value(r?.TopicBytesOnDisk / 1e6, "0.000"), Value(r?.DiskBytesPerPayloadByte, "0.000"),
                        .. proxy ? [Value(r?.ProxyCpuSeconds, "0.000")] : Array.Empty<string>(),
                    ];
                })),
        ]);
    }

    private static IEnumerable<ReportSection> Warnings(BenchmarkResult result)
    {
        if (result.Warnings.Count > 0) yield return new ReportSection("Warnings", [new ReportList(result.Warnings)]);
    }

    private static IEnumerable<ReportSection> FailedRuns(BenchmarkResult result)
    {
        var failures = result.Runs.Where(r => !r.Succeeded).ToList();
        if (failures.Count == 0) yield break;
        bool open = failures.Any(r => !r.Verified);
        yield return new ReportSection("Failed runs",
        [
            .. open ? [new ReportParagraph("Not verified: records acknowledged and not read, whose partitions' reads stopped before their offsets - nothing "
                + "is known of them, so they are not counted lost. A record is lost only when a read of its partition went past the offset at which it was acknowledged.")]
                : Array.Empty<ReportBlock>(),
            new ReportTable(
                [Right("run"), Left("client"), Left("scenario"), Right("messages"), Right("payload B"), Left("error"), .. open ? [Left("not verified")] : Array.Empty<ReportColumn>()],
                failures.Select(string[] (run) =>
                    [Count(run.Sequence), run.Client, Name(run.Scenario), Count(run.MessageCount), Count(run.PayloadBytes), run.Error ?? string.Empty,
                     .. open ? [run.NotVerifiedReason ?? string.Empty] : Array.Empty<string>()])),
        ]);
    }

    /// <summary>A cell's lost records, and those not verified when some run's read stopped short of them; – for a
    /// client's produce cell, which reads nothing back (a zero there would claim a check that was never made). A reference
    /// tool's produce is checked against the topic's end offsets, so its figure stands; and any figure a produce cell does
    /// carry (a worker's share not verified, a plugin's count) is shown, never hidden behind –.</summary>
    private static string Lost(CellResult c, BenchmarkPlan plan) =>
        c.NotVerifiedRuns > 0 ? $"{Count(c.Lost)} + {Count(c.NotVerified)} not verified"
        : c.Scenario == ScenarioKind.Produce && c.Lost == 0 && !plan.IsReference(c.Client) ? "–"
        : Count(c.Lost);

    /// <summary>A cell's records read more than once; – for a produce cell, which reads nothing back (unless it carries a
    /// figure).</summary>
    private static string Duplicates(CellResult c) => c.Scenario == ScenarioKind.Produce && c.Duplicates == 0 ? "–" : Count(c.Duplicates);

    /// <summary>The sentence that says why a produce cell's lost and dup are –, when the table has one.</summary>
    private static string NothingReadBack(IEnumerable<CellResult> cells) =>
        cells.Any(c => c.Scenario == ScenarioKind.Produce)
            ? " Lost and dup are – for a client's produce, which reads nothing back (a reference tool's is checked against the topic's end offsets; a record the broker did not acknowledge is reported as a delivery error, never as lost; a fault's read-back is in the Failover table)."
            : string.Empty;

    private static string Title(ScenarioKind kind) => kind.ToString();

    private static string Name(ScenarioKind kind) => kind.ToString().ToLowerInvariant();

    /// <summary>The partitions of the runs' topics: the variants' own when they set them (<c>--partitions</c> sweeps), the
    /// plan's otherwise.</summary>
    private static string PartitionsText(Plans.BenchmarkPlan plan)
    {
        var counts = plan.SettingsVariants.Select(v => v.Partitions ?? plan.Partitions).Distinct().Order().ToList();
        return counts.Count == 1 ? $"{Count(counts[0])} partition(s)" : $"{string.Join(", ", counts.Select(c => Count(c)))} partitions (per variant)";
    }
}
