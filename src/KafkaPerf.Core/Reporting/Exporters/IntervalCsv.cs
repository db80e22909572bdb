using KafkaPerf.Measurement;
namespace KafkaPerf.Reporting.Exporters;

/// <summary>The time series of every load run as CSV: one row per run and interval.</summary>
internal static class IntervalCsv
{
    private static readonly string[] Header =
    [
        "sequence", "client", "scenario", "messageCount", "payloadBytes", "variant", "offeredRate", "repetition", "warmupRun", "succeeded",
        "interval", "startSeconds", "lengthSeconds", "warmup", "sent", "acknowledged", "consumed",
        "sentPerSecond", "acknowledgedPerSecond", "consumedPerSecond", "megabytesPerSecond", "inFlight", "lag",
        "responseCount", "responseP50Micros", "responseP99Micros", "responseP999Micros", "responseMaxMicros",
        "serviceCount", "serviceP50Micros", "serviceP99Micros", "serviceP999Micros", "serviceMaxMicros",
        "sendDelayCount", "sendDelayP50Micros", "sendDelayP99Micros", "sendDelayP999Micros", "sendDelayMaxMicros",
    ];

    public static void Write(BenchmarkResult result, TextWriter writer)
    {
        writer.Write(string.Join(',', Header));
        writer.Write('\n');
        foreach (var run in result.Runs)
        {
            foreach (var i in run.Intervals ?? [])
            {
                string[] fields =
                [
                    CsvExporter.Num(run.Sequence), run.Client, run.Scenario.ToString().ToLowerInvariant(), CsvExporter.Num(run.MessageCount),
                    CsvExporter.Num(run.PayloadBytes), run.Variant, CsvExporter.Num(run.OfferedRate), CsvExporter.Num(run.Repetition),
                    CsvExporter.Bool(run.IsWarmup), CsvExporter.Bool(run.Succeeded),
                    CsvExporter.Num(i.Index), CsvExporter.Num(i.StartSeconds), CsvExporter.Num(i.LengthSeconds), CsvExporter.Bool(i.Warmup),
                    CsvExporter.Num(i.Sent), CsvExporter.Num(i.Acknowledged), CsvExporter.Num(i.Consumed),
                    CsvExporter.Num(i.SentPerSecond), CsvExporter.Num(i.AcknowledgedPerSecond), CsvExporter.Num(i.ConsumedPerSecond),
                    CsvExporter.Num(i.MegabytesPerSecond), CsvExporter.Num(i.InFlight), CsvExporter.Num(i.Lag),
                    .. Latency(i.ResponseTime), .. Latency(i.ServiceTime), .. Latency(i.SendDelay),
                ];
                writer.Write(string.Join(',', fields.Select(CsvExporter.Quote)));
                writer.Write('\n');
            }
        }
    }

    private static string[] Latency(IntervalLatency? latency) => latency is null
        ? ["0", string.Empty, string.Empty, string.Empty, string.Empty]
        : [CsvExporter.Num(latency.Count), CsvExporter.Num(latency.P50Micros), CsvExporter.Num(latency.P99Micros), CsvExporter.Num(latency.P999Micros), CsvExporter.Num(latency.MaxMicros)];
}
