using KafkaPerf.Measurement;
using static KafkaPerf.Reporting.Tables.ExactCells;

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
        "clientQueueMs", "clientRequestMs", "batchBytes", "recordsPerRequest", "throttleMs", "dotnetGcPauseMs", "runtimeGcMs",
        "clientFetchMs", "clientLag",
        "brokerProduceRequests", "brokerProduceQueueMs", "brokerProduceLocalMs", "brokerProduceRemoteMs", "brokerProduceResponseMs", "brokerProduceTotalMs",
        "brokerFetchRequests", "brokerFetchRemoteMs", "brokerFetchTotalMs", "brokerGcMs",
    ];

    public static void Write(BenchmarkResult result, TextWriter writer)
    {
        CsvExporter.WriteLine(Header, writer);
        foreach (var run in result.Runs)
        {
            foreach (var i in run.Intervals ?? [])
            {
                string[] fields =
                [
                    Number(run.Sequence), run.Client, run.Scenario.ToString().ToLowerInvariant(), Number(run.MessageCount),
                    Number(run.PayloadBytes), run.Variant, Number(run.OfferedRate), Number(run.Repetition),
                    Flag(run.IsWarmup), Flag(run.Succeeded),
                    Number(i.Index), Number(i.StartSeconds), Number(i.LengthSeconds), Flag(i.Warmup),
                    Number(i.Sent), Number(i.Acknowledged), Number(i.Consumed),
                    Number(i.SentPerSecond), Number(i.AcknowledgedPerSecond), Number(i.ConsumedPerSecond),
                    Number(i.MegabytesPerSecond), Number(i.InFlight), Number(i.Lag),
                    .. Latency(i.ResponseTime), .. Latency(i.ServiceTime), .. Latency(i.SendDelay), .. Breakdown(i.Breakdown),
                ];
                CsvExporter.WriteLine(fields, writer);
            }
        }
    }

    private static string[] Breakdown(IntervalBreakdown? b) =>
    [
        Number(b?.QueueMs), Number(b?.RequestMs), Number(b?.BatchBytes), Number(b?.RecordsPerRequest), Number(b?.ThrottleMs),
        Number(b?.DotnetGcPauseMs), Number(b?.RuntimeGcMs), Number(b?.FetchMs), Number(b?.ClientLag),
        Number(b?.Broker?.Produce?.Requests), Number(b?.Broker?.Produce?.QueueMs), Number(b?.Broker?.Produce?.LocalMs),
        Number(b?.Broker?.Produce?.RemoteMs), Number(b?.Broker?.Produce?.ResponseMs), Number(b?.Broker?.Produce?.TotalMs),
        Number(b?.Broker?.Fetch?.Requests), Number(b?.Broker?.Fetch?.RemoteMs), Number(b?.Broker?.Fetch?.TotalMs), Number(b?.Broker?.GcMs),
    ];

    private static string[] Latency(IntervalLatency? latency) => latency is null
        ? ["0", string.Empty, string.Empty, string.Empty, string.Empty]
        : [Number(latency.Count), Number(latency.P50Micros), Number(latency.P99Micros), Number(latency.P999Micros), Number(latency.MaxMicros)];
}
