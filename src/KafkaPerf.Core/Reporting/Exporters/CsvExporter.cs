using System.Globalization;

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
        "runtimeGcMillis", "runtimeHeapUsedBytes", "brokerCpuSeconds", "topicBytesOnDisk", "diskBytesPerPayloadByte", "error",
    ];

    /// <inheritdoc />
    public override string Format => "csv";

    /// <inheritdoc />
    public override string FileExtension => "csv";

    /// <inheritdoc />
    public override void Export(BenchmarkResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(string.Join(',', Header));
        writer.Write('\n');
        foreach (var run in result.Runs)
        {
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
                Num(r?.TopicBytesOnDisk), Num(r?.DiskBytesPerPayloadByte), run.Error ?? string.Empty,
            ];
            writer.Write(string.Join(',', fields.Select(Quote)));
            writer.Write('\n');
        }
    }

    private static string Num(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Num(long? value) => value is { } v ? Num(v) : string.Empty;

    private static string Num(double? value) =>
        value is not { } v || double.IsNaN(v) ? string.Empty : v.ToString("R", CultureInfo.InvariantCulture);

    private static string Bool(bool value) => value ? "true" : "false";

    // RFC 4180: quote fields holding a comma, a quote or a line break; double the quotes inside.
    private static string Quote(string field) =>
        field.AsSpan().IndexOfAny(",\"\n\r") >= 0 ? $"\"{field.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : field;
}
