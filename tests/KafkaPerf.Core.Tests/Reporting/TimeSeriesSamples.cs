using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>Results with time series and gaps in them, built by hand so that a chart can be read back against what was
/// and was not measured.</summary>
internal static class TimeSeriesSamples
{
    /// <summary>The interval length of the samples' series, in seconds.</summary>
    public const double IntervalSeconds = 1;

    /// <summary>When each client's fault fired and when its partition had a new leader, on the axis (seconds from the first
    /// record's due time; the warm-up is the first second).</summary>
    public static readonly IReadOnlyDictionary<string, (double Fired, double NewLeader)> Faults = new Dictionary<string, (double, double)>
    {
        ["confluent"] = (5.11, 16.11),
        ["java"] = (5.03, 14.54),
    };

    /// <summary>A failover as the issue saw it: two clients at 1 000 msg/s for 15 s after a 1 s warm-up, each with its own
    /// leader killed about 4 s into the measured part; confluent acknowledges nothing from 6 s to 17 s, java from 6 s to
    /// 14 s and, besides, has its send blocked for two seconds (records due and not sent) and no queue figure at 2 s
    /// (a gap without an outage). A warm-up run of each, with an outage of its own, must not be drawn.</summary>
    public static BenchmarkResult Failover(int repeat = 1)
    {
        var plan = new BenchmarkPlanBuilder().Clients("confluent", "java").Scenarios(ScenarioKind.Produce).PayloadSizes(1_000)
            .Rates(1_000).Duration(TimeSpan.FromSeconds(15)).LoadWarmup(TimeSpan.FromSeconds(1)).Repeat(repeat).Build();
        var cell = plan.Cells().Single();
        var runs = new List<RunRecord>();
        int sequence = 0;
        foreach (var client in plan.Clients)
        {
            for (int repetition = 0; repetition <= repeat; repetition++)
            {
                sequence++;
                var (fired, newLeader) = Faults[client];
                runs.Add(new RunRecord
                {
                    Sequence = sequence, Client = client, Scenario = cell.Scenario, MessageCount = cell.MessageCount, PayloadBytes = cell.PayloadBytes,
                    Variant = cell.Variant, Repetition = repetition, IsWarmup = repetition == 0, OfferedRate = cell.Rate, Topic = $"t{sequence}",
                    ElapsedSeconds = 17.9, MessagesPerSecond = 16_000 / 17.9, MegabytesPerSecond = 16 / 17.9, AchievedRate = 1_000, Sent = 16_000, Delivered = 16_000,
                    // The warm-up run failed over at another time: were it drawn, the outages would not be where the test expects.
                    Intervals = Intervals(client, warmupRun: repetition == 0),
                    Faults = [new FaultRecord
                    {
                        Fault = "kill:leader@4s", Node = 2, Did = "SIGKILL node 2", FiredAtSeconds = fired, LeaderBefore = 2, NewLeader = 3,
                        ElectionSeconds = newLeader - fired, InSyncChangeSeconds = newLeader - fired,
                    }],
                });
            }
        }
        return ReportSamples.Assemble(plan, runs);
    }

    /// <summary>Records acknowledged per interval of <paramref name="client"/>'s measured runs (index 0 is the warm-up).</summary>
    public static long[] Acknowledged(string client) => client == "confluent"
        ? [1_000, 1_000, 1_000, 1_000, 1_000, 109, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10_891]
        : [1_000, 1_000, 1_000, 1_000, 1_000, 29, 0, 0, 0, 0, 0, 0, 0, 0, 682, 4_032, 3_664, 2_593];

    /// <summary>Records handed to the client per interval: java's send blocks at 8 and 9 s and catches up at 10 s.</summary>
    public static long[] Sent(string client) => client == "confluent"
        ? [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 0, 0]
        : [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 0, 0, 3_000, 1_000, 1_000, 1_000, 1_000, 1_000, 0, 0];

    private static List<IntervalRecord> Intervals(string client, bool warmupRun)
    {
        var acknowledged = Acknowledged(client);
        var sent = Sent(client);
        if (warmupRun) acknowledged = [.. acknowledged.Skip(2), 0, 0];
        var intervals = new List<IntervalRecord>();
        long sentSoFar = 0, acknowledgedSoFar = 0;
        for (int i = 0; i < acknowledged.Length; i++)
        {
            sentSoFar += sent[i];
            acknowledgedSoFar += acknowledged[i];
            double length = i == acknowledged.Length - 1 ? 0.9 : IntervalSeconds;
            bool none = acknowledged[i] == 0;
            // The records acknowledged after an outage waited through it: seconds, against milliseconds before.
            double p99 = i < 14 ? (client == "confluent" ? 14_000 + (i * 100) : 60_000 + (i * 1_000))
                : client == "confluent" ? 12_600_000 : 9_800_000 - ((i - 14) * 2_000_000);
            intervals.Add(new IntervalRecord
            {
                Index = i, StartSeconds = i * IntervalSeconds, LengthSeconds = length, Warmup = i == 0,
                Sent = sent[i], Acknowledged = acknowledged[i], Consumed = 0, MegabytesPerSecond = acknowledged[i] * 1_000 / 1e6 / length,
                InFlight = sentSoFar - acknowledgedSoFar,
                ResponseTime = none ? null : new IntervalLatency(acknowledged[i], p99 / 3, p99, p99 * 1.2, p99 * 1.5),
                ServiceTime = none ? null : new IntervalLatency(acknowledged[i], p99 / 4, p99 / 2, p99 * 0.6, p99 * 0.7),
                Breakdown = new IntervalBreakdown
                {
                    QueueMs = none || (client == "java" && i == 2) ? null : client == "confluent" ? 3.2 : 6 + i,
                    RequestMs = client == "confluent" ? 2.1 + (i % 3) : none ? null : 20 + i,
                    DotnetGcPauseMs = i % 4 == 1 ? 2.5 : 0,
                    RuntimeGcMs = client == "java" && i % 5 == 2 ? 12 : 0,
                },
            });
        }
        return intervals;
    }
}
