namespace KafkaPerf.Cli.Tests;

/// <summary><c>--network</c> where it cannot run, or malformed: one line, exit 2, nothing started and nothing written.</summary>
public partial class CliTests
{
    [Theory]
    [InlineData(new[] { "--network", "rtt=5ms", "--bootstrap", "localhost:9092" }, "--network shapes only the embedded broker or cluster")]
    [InlineData(new[] { "--network", "rtt=5ms", "--broker", "testcontainers" }, "shape that host's network with tc (docs/network.md)")]
    [InlineData(new[] { "--network", "rtt=5ms", "--workers", "g", "--bootstrap", "localhost:9092" }, "--network shapes only the embedded broker or cluster")]
    [InlineData(new[] { "--network", "rtt=5ms,via=netem" }, "--network via=netem")]
    [InlineData(new[] { "--network", "rtt=-1ms" }, "--network 'rtt=-1ms' is not a network spec: rtt '-1ms' is negative")]
    [InlineData(new[] { "--network", "rtt=5" }, "rtt '5' has no unit: use us, ms or s")]
    [InlineData(new[] { "--network", "delay=5ms" }, "'delay' is not a key")]
    [InlineData(new[] { "--network", "rtt=1ms;rate=5" }, "rate '5' has no unit")]
    [InlineData(new[] { "--network", "rtt=0ms,rtt=1ms" }, "'rtt' is given twice")]
    public async Task Run_NetworkThatCannotRun_OneLineExit2AndNothingStarted(string[] args, string expected)
        => await AssertRefusedAsync(args, expected);
}
