namespace KafkaPerf.Cli.Tests;

/// <summary>Faults (--fault) the plan or its cluster cannot take: one line, exit 2, before anything starts.</summary>
public partial class CliTests
{
    [Theory]
    [InlineData(new[] { "--fault", "kill:leader@2s" }, "--fault needs a run at a fixed rate (--rate 2000 --duration 30s)")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "explode:leader@2s" }, "has an unknown kind 'explode'")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "kill:leader" }, "has no time (@10s)")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "pause:leader@2s" }, "says when the node goes but not for how long: write pause:leader@2s+5s")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "kill:node:0@2s" }, "which is none of leader, controller or node:N")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "exec@2s" }, "has no command (exec@10s:COMMAND)")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "kill:leader@9s" }, "fires 9 s into the measured part, which lasts 5 s")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "kill:leader@2s" }, "would take down the only broker of a one-node cluster: start a cluster with --brokers 3")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "move-leader@2s" }, "needs another replica to move the leadership to")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--brokers", "3", "--fault", "kill:node:4@2s" }, "names node 4, and the cluster has nodes 1 to 3")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--brokers", "3", "--fault", "kill:node:1@1s", "--fault", "pause:node:2@2s+1s" }, "would have 2 of the cluster's 3 controllers down at once")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--bootstrap", "127.0.0.1:1", "--fault", "kill:leader@2s" }, "needs a cluster KafkaPerf started, and a cluster given with --bootstrap is not one")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--partitions", "3", "--fault", "exec@2s:true" }, "--fault watches the run's one partition")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--processes", "2", "--fault", "exec@2s:true" }, "workers (--processes, --workers) do not take faults or membership events yet")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "partition:leader@2s+1s" }, "would take down the only broker of a one-node cluster")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "slow:leader@2s" }, "says not how slow (slow:leader@10s+20s:rtt=200ms)")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--bootstrap", "127.0.0.1:1", "--fault", "partition:leader@2s" }, "needs a cluster KafkaPerf started, and a cluster given with --bootstrap is not one")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--brokers", "3", "--fault", "partition:node:1@1s", "--fault", "isolate:node:2@2s+1s" }, "would have 2 of the cluster's 3 controllers down at once")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--slo", "p99<20ms" }, "--slo on run sets the goal recovery from a fault is measured against: give --fault too")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "exec@2s:true", "--slo", "p95<20ms" }, "must be one goal on p50, p99, p99.9 or max")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--consumers", "2", "--fault", "jion:consumer@2s" }, "has an unknown membership event 'jion'")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--fault", "crash:consumer@2s" }, "A leave or a crash needs another member to take over the partitions: give --consumers 2 or more.")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--consumers", "2", "--group-protocol", "consumer", "-X", "confluent:session.timeout.ms=6000" }, "-X confluent:session.timeout.ms is refused by the consumer group protocol (KIP-848)")]
    [InlineData(new[] { "--consumers", "2", "--group-protocol", "consumer", "--assignor", "range" }, "--assignor is a classic group's: the consumer protocol (KIP-848) assigns partitions on the broker")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--consumers", "2", "--group-protocol", "eager" }, "Unknown group protocol 'eager': use classic or consumer (KIP-848)")]
    [InlineData(new[] { "--rate", "100", "--duration", "5s", "--consumers", "2", "--static-membership", "yes" }, "Unknown --static-membership value 'yes': use on, off or both")]
    public async Task Run_FaultThePlanOrClusterCannotTake_OneLineExit2AndNothingStarted(string[] args, string expected)
        => await AssertRefusedAsync(args, expected);

    /// <summary>A <c>run</c> of <c>confluent</c> with <paramref name="args"/>: refused in one line that says
    /// <paramref name="expected"/>, exit code 2, and no output folder.</summary>
    private static async Task AssertRefusedAsync(string[] args, string expected)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        var (exit, _, err) = await RunAsync(["run", "--clients", "confluent", "--output", output, .. args]);

        Assert.Equal(2, exit);
        Assert.Contains(expected, err, StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
        Assert.False(Directory.Exists(output));
    }
}
