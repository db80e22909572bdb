using System.Globalization;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>One row per run, warm-ups and failures included (flagged), for other tools to process.</summary>
public sealed class CsvExporter : ResultExporterBase
{
    private static readonly string[] Header =
    [
        "sequence", "client", "scenario", "messageCount", "payloadBytes", "variant", "repetition", "warmup", "topic",
        "elapsedSeconds", "messagesPerSecond", "megabytesPerSecond", "sent", "delivered", "received", "lost", "duplicates",
        "unexpected", "payloadMismatches", "prefetch", "succeeded", "latencyP50Micros", "latencyP99Micros", "latencyMaxMicros",
        "cpuUserSeconds", "cpuSystemSeconds", "gen0Collections", "gen1Collections", "gen2Collections", "allocatedBytes",
        "runtimeGcMillis", "runtimeHeapUsedBytes", "brokerCpuSeconds", "topicBytesOnDisk", "diskBytesPerPayloadByte",
        "offeredRate", "achievedRate", "producers", "consumers", "warmupRecords",
        "responseP50Micros", "responseP99Micros", "responseP999Micros", "responseMaxMicros",
        "serviceP50Micros", "serviceP99Micros", "serviceP999Micros", "serviceMaxMicros", "sendDelayP99Micros", "sendDelayMaxMicros",
        "error",
    ];

    /// <inheritdoc />
    public override string Format => "csv";

    /// <inheritdoc />
    public override string FileExtension => "csv";

    /// <inheritdoc />
    /// <remarks>Load runs add their time series: one row per run and interval (<c>-intervals.csv</c>), and the intervals'
    /// histograms in HdrHistogram's log format (<c>-intervals.hlog</c>).</remarks>
    public override IReadOnlyList<CompanionFile> CompanionFiles(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        if (!result.Runs.Any(r => r.Intervals is { Count: > 0 })) return [];
        return [new CompanionFile("intervals", "csv", writer => IntervalCsv.Write(result, writer)), new CompanionFile("intervals", "hlog", writer => HistogramLog.Write(result, writer))];
    }

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        WriteHeader(writer);
        foreach (var run in result.Runs) WriteRow(run, writer);
    }

    /// <summary>Writes the header line: what a file of appended rows (the CLI's checkpoint) starts with.</summary>
    /// <param name="writer">Where to write.</param>
    public static void WriteHeader(TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(string.Join(',', Header));
        writer.Write('\n');
    }

    /// <summary>Writes one run's line, as <see cref="Export"/> does.</summary>
    /// <param name="run">The run.</param>
    /// <param name="writer">Where to write.</param>
    public static void WriteRow(RunRecord run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);
        var r = run.Resources;
        string[] fields =
        [
            Num(run.Sequence), run.Client, run.Scenario.ToString().ToLowerInvariant(), Num(run.MessageCount), Num(run.PayloadBytes),
            run.Variant, Num(run.Repetition), Bool(run.IsWarmup), run.Topic,
            Num(run.ElapsedSeconds), Num(run.MessagesPerSecond), Num(run.MegabytesPerSecond),
            Num(run.Sent), Num(run.Delivered), Num(run.Received), Num(run.Lost), Num(run.Duplicates),
            Num(run.Unexpected), Num(run.PayloadMismatches), Bool(run.PrefetchEnabled), Bool(run.Succeeded),
            Num(run.Latency?.P50Micros), Num(run.Latency?.P99Micros), Num(run.Latency?.MaxMicros),
            Num(r?.CpuUserSeconds), Num(r?.CpuSystemSeconds), Num(r?.Gen0Collections), Num(r?.Gen1Collections), Num(r?.Gen2Collections),
            Num(r?.AllocatedBytes), Num(r?.RuntimeGcMillis), Num(r?.RuntimeHeapUsedBytes), Num(r?.BrokerCpuSeconds),
            Num(r?.TopicBytesOnDisk), Num(r?.DiskBytesPerPayloadByte),
            Num(run.OfferedRate), Num(run.AchievedRate), Num(run.Producers), Num(run.Consumers), Num(run.WarmupRecords),
            Num(run.ResponseTime?.P50Micros), Num(run.ResponseTime?.P99Micros), Num(run.ResponseTime?.P999Micros), Num(run.ResponseTime?.MaxMicros),
            Num(run.ServiceTime?.P50Micros), Num(run.ServiceTime?.P99Micros), Num(run.ServiceTime?.P999Micros), Num(run.ServiceTime?.MaxMicros),
            Num(run.SendDelay?.P99Micros), Num(run.SendDelay?.MaxMicros),
            run.Error ?? string.Empty,
        ];
        writer.Write(string.Join(',', fields.Select(Quote)));
        writer.Write('\n');
    }

    internal static string Num(long value) => value.ToString(CultureInfo.InvariantCulture);

    internal static string Num(long? value) => value is { } v ? Num(v) : string.Empty;

    internal static string Num(double? value) =>
        value is not { } v || double.IsNaN(v) ? string.Empty : v.ToString("R", CultureInfo.InvariantCulture);

    internal static string Bool(bool value) => value ? "true" : "false";

    // RFC 4180: quote fields holding a comma, a quote or a line break; double the quotes inside.
    internal static string Quote(string field) =>
        field.AsSpan().IndexOfAny(",\"\n\r") >= 0 ? $"\"{field.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : field;
}
