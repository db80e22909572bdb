namespace KafkaPerf.Cli.Commands;

/// <summary>
/// How long a broker the tool starts is warmed up before a rate plan or a search when <c>--cluster-warmup</c> is not
/// given, from what was measured on a 2-core machine (docs/BENCHMARKS.md, "A just-started cluster" and "One
/// just-started broker"): a 3-broker cluster's first cell at 2 000 msg/s had p95 35 ms cold, 5 ms after 60 s of rounds
/// and 1-2 ms after 90 s; one broker's first cell came to the later cells' level after 30 s in every invocation, after
/// 10 s in two of three.
/// </summary>
internal static class ClusterWarmupDefaults
{
    /// <summary>For one broker (the embedded broker, a container).</summary>
    public static readonly TimeSpan OneBroker = TimeSpan.FromSeconds(30);

    /// <summary>For a cluster of several brokers.</summary>
    public static readonly TimeSpan Cluster = TimeSpan.FromSeconds(90);

    /// <summary>The default for a cluster of <paramref name="brokers"/> brokers.</summary>
    /// <param name="brokers">Brokers.</param>
    /// <returns>The warm-up.</returns>
    public static TimeSpan For(int brokers) => brokers > 1 ? Cluster : OneBroker;
}
