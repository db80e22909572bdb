using KafkaPerf.Measurement;
using static KafkaPerf.Reporting.Tables.ExactCells;
using static KafkaPerf.Reporting.Tables.ReportColumn;

namespace KafkaPerf.Reporting.Tables;

/// <summary>The time series of every load run, for other tools (the CSV file <c>-intervals.csv</c>): one row per run and
/// interval, numbers in full precision.</summary>
public static class IntervalTables
{
    /// <summary>The columns of <see cref="Rows"/>: the run, the interval, its counts and rates, its three latencies, and
    /// where its time went (the client's and the broker's own figures).</summary>
    public static IReadOnlyList<ReportColumn> Columns { get; } =
    [
        Right("sequence"), Left("client"), Left("scenario"), Right("messageCount"), Right("payloadBytes"), Left("variant"), Right("offeredRate"),
        Right("repetition"), Left("warmupRun"), Left("succeeded"),
        Right("interval"), Right("startSeconds"), Right("lengthSeconds"), Left("warmup"), Right("sent"), Right("acknowledged"), Right("consumed"),
        Right("sentPerSecond"), Right("acknowledgedPerSecond"), Right("consumedPerSecond"), Right("megabytesPerSecond"), Right("inFlight"), Right("lag"),
        .. LatencyColumns("response"), .. LatencyColumns("service"), .. LatencyColumns("sendDelay"),
        Right("clientQueueMs"), Right("clientRequestMs"), Right("batchBytes"), Right("recordsPerRequest"), Right("throttleMs"), Right("dotnetGcPauseMs"),
        Right("runtimeGcMs"), Right("clientFetchMs"), Right("clientLag"),
        Right("brokerProduceRequests"), Right("brokerProduceQueueMs"), Right("brokerProduceLocalMs"), Right("brokerProduceRemoteMs"),
        Right("brokerProduceResponseMs"), Right("brokerProduceTotalMs"),
        Right("brokerFetchRequests"), Right("brokerFetchRemoteMs"), Right("brokerFetchTotalMs"), Right("brokerGcMs"),
    ];

    /// <summary>One row per run and interval, in the order the runs ran; a run without a time series has none.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The table.</returns>
    public static ReportTable Rows(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return new ReportTable(Columns, result.Runs.SelectMany(run => (run.Intervals ?? []).Select(string[] (i) =>
        [
            Number(run.Sequence), run.Client, run.Scenario.ToString().ToLowerInvariant(), Number(run.MessageCount),
            Number(run.PayloadBytes), run.Variant, Number(run.OfferedRate), Number(run.Repetition),
            Flag(run.IsWarmup), Flag(run.Succeeded),
            Number(i.Index), Number(i.StartSeconds), Number(i.LengthSeconds), Flag(i.Warmup),
            Number(i.Sent), Number(i.Acknowledged), Number(i.Consumed),
            Number(i.SentPerSecond), Number(i.AcknowledgedPerSecond), Number(i.ConsumedPerSecond),
            Number(i.MegabytesPerSecond), Number(i.InFlight), Number(i.Lag),
            .. Latency(i.ResponseTime), .. Latency(i.ServiceTime), .. Latency(i.SendDelay), .. Breakdown(i.Breakdown),
        ])));
    }

    private static ReportColumn[] LatencyColumns(string name) =>
        [Right($"{name}Count"), Right($"{name}P50Micros"), Right($"{name}P99Micros"), Right($"{name}P999Micros"), Right($"{name}MaxMicros")];

    private static string[] Breakdown(IntervalBreakdown? b) =>
    [
        Number(b?.QueueMs), Number(b?.RequestMs), Number(b?.BatchBytes), Number(b?.RecordsPerRequest), Number(b?.ThrottleMs),
        Number(b?.DotnetGcPauseMs), Number(b?.RuntimeGcMs), Number(b?.FetchMs), Number(b?.ClientLag),
        Number(b?.Broker?.Produce?.Requests), Number(b?.Broker?.Produce?.QueueMs), Number(b?.Broker?.Produce?.LocalMs),
        Number(b?.Broker?.Produce?.RemoteMs), Number(b?.Broker?.Produce?.ResponseMs), Number(b?.Broker?.Produce?.TotalMs),
        Number(b?.Broker?.Fetch?.Requests), Number(b?.Broker?.Fetch?.RemoteMs), Number(b?.Broker?.Fetch?.TotalMs), Number(b?.Broker?.GcMs),
    ];

    // An interval in which no record of a kind completed has a count of 0 and no percentiles.
    private static string[] Latency(IntervalLatency? latency) => latency is null
        ? ["0", string.Empty, string.Empty, string.Empty, string.Empty]
        : [Number(latency.Count), Number(latency.P50Micros), Number(latency.P99Micros), Number(latency.P999Micros), Number(latency.MaxMicros)];
}
