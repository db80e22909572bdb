using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Clients;

/// <summary><c>--network</c>: its spec's parser, its canonical text, its sweep, and its refusals.</summary>
public class NetworkSpecTests
{
    [Theory]
    [InlineData("rtt=2ms", "rtt=2ms", 2000, 2000, 0, null)]
    [InlineData(" RTT = 5ms , jitter=0.2ms ", "rtt=5ms,jitter=0.2ms", 5000, 5000, 200, null)]
    [InlineData("rtt=500us,rate=1gbit", "rtt=0.5ms,rate=1gbit", 500, 500, 0, 1_000_000_000L)]
    [InlineData("client-rtt=1ms,broker-rtt=0.1ms", "client-rtt=1ms,broker-rtt=0.1ms", 1000, 100, 0, null)]
    [InlineData("rtt=1ms,broker-rtt=0ms", "client-rtt=1ms,broker-rtt=0ms", 1000, 0, 0, null)]
    [InlineData("rtt=0ms", "rtt=0ms", 0, 0, 0, null)]
    [InlineData("rtt=0.02s,rate=100mbit", "rtt=20ms,rate=100mbit", 20_000, 20_000, 0, 100_000_000L)]
    [InlineData("rate=1.5gbit", "rtt=0ms,rate=1500mbit", 0, 0, 0, 1_500_000_000L)]
    public void Parse_ValidSpec_ReadsItAndWritesItCanonically(string text, string canonical, double clientMicros, double brokerMicros, double jitterMicros, long? rate)
    {
        var spec = NetworkSpec.Parse(text);

        Assert.Equal(clientMicros, spec.ClientRtt.TotalMicroseconds);
        Assert.Equal(brokerMicros, spec.BrokerRtt.TotalMicroseconds);
        Assert.Equal(jitterMicros, spec.Jitter.TotalMicroseconds);
        Assert.Equal(rate, spec.RateBitsPerSecond);
        Assert.Equal(canonical, spec.ToString());
        Assert.Equal(spec, NetworkSpec.Parse(spec.ToString()));
        Assert.Equal(spec.ClientRtt / 2, spec.ClientOneWay);
    }

    [Theory]
    [InlineData("rtt=-1ms", "rtt '-1ms' is negative")]
    [InlineData("rtt=5", "rtt '5' has no unit")]
    [InlineData("rtt=5min", "has no unit")]
    [InlineData("rtt=1.2.3ms", "is not a number")]
    [InlineData("latency=5ms", "'latency' is not a key")]
    [InlineData("rtt", "'rtt' is not key=value")]
    [InlineData("rtt=1ms,rtt=2ms", "'rtt' is given twice")]
    [InlineData("rate=10", "rate '10' has no unit")]
    [InlineData("rate=-1gbit", "rate '-1gbit' is negative")]
    [InlineData("rate=100bit", "below 8kbit")]
    [InlineData("rtt=2ms,jitter=1.5ms", "jitter 1.5ms is more than a one-way delay")]
    [InlineData("jitter=1ms", "sets no round trip and no rate")]
    [InlineData("rtt=5ms,via=tc", "via 'tc' is neither proxy nor netem")]
    [InlineData("rtt=61s", "is more than 60 s")]
    public void Parse_MalformedSpec_SaysWhatIsWrongInOneLine(string text, string expected)
    {
        var error = Assert.Throws<FormatException>(() => NetworkSpec.Parse(text));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.StartsWith($"--network '{text}' is not a network spec", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void ParseList_SemicolonSeparatedSpecs_EachOnceInOrder()
    {
        var specs = NetworkSpec.ParseList("rtt=0ms; rtt=1ms,jitter=0.1ms ;rtt=5ms;rtt=1ms,jitter=0.1ms;");

        Assert.Equal(["rtt=0ms", "rtt=1ms,jitter=0.1ms", "rtt=5ms"], specs.Select(s => s.ToString()));
        Assert.Throws<FormatException>(() => NetworkSpec.ParseList(" ; "));
    }

    [Fact]
    public void Plan_NetworkList_SweepsLikeAClientKnobAndSurvivesItsDocument()
    {
        var plan = Plan(NetworkSpec.Parse("rtt=1ms"), NetworkSpec.Parse("client-rtt=5ms,broker-rtt=1ms,rate=1gbit"));

        Assert.Equal(["network=rtt=1ms", "network=client-rtt=5ms,broker-rtt=1ms,rate=1gbit"], plan.SettingsVariants.Select(v => v.Describe()));
        var read = PlanDocument.Parse(PlanDocument.ToJson(plan), "test");
        Assert.Equal(plan.SettingsVariants.Select(v => v.Network), read.SettingsVariants.Select(v => v.Network));
    }

    [Fact]
    public void Refusals_NoNetwork_NoneWhateverTheCluster()
    {
        var facts = new ClusterFacts(true, 1, false, "the Kafka cluster", null);

        Assert.Empty(NetworkChecks.Errors(Plan(), facts, () => "no netem"));
    }

    [Fact]
    public void Refusals_ClusterWithoutProxies_SaysToShapeItsHostWithTc()
    {
        var facts = new ClusterFacts(true, 1, false, "the Kafka cluster", null);

        var error = Assert.Single(NetworkChecks.Errors(Plan(NetworkSpec.Parse("rtt=5ms")), facts, () => null));

        Assert.Contains("a container broker (--broker testcontainers) or a --bootstrap cluster", error, StringComparison.Ordinal);
        Assert.Contains("with tc", error, StringComparison.Ordinal);
        Assert.Empty(NetworkChecks.Errors(Plan(NetworkSpec.Parse("rtt=5ms")), facts with { ShapesNetwork = true }, () => null));
    }

    [Fact]
    public void Refusals_ViaNetem_SaysWhyNotHereAndThatTheProxyNeedsNone()
    {
        var facts = new ClusterFacts(true, 1, false, "the Kafka cluster", null) { ShapesNetwork = true };
        var plan = Plan(NetworkSpec.Parse("rtt=5ms,via=netem"));

        var noNetem = Assert.Single(NetworkChecks.Errors(plan, facts, () => "this kernel has no netem qdisc"));
        var notBuilt = Assert.Single(NetworkChecks.Errors(plan, facts, () => null));

        Assert.Equal("this kernel has no netem qdisc", noNetem);
        Assert.Contains("leave via= out", notBuilt, StringComparison.Ordinal);
    }

    [Fact]
    public void NetemRefusal_ThisMachine_NamesTheKernelOrRoot()
    {
        // This machine's kernel has no netem ("Specified qdisc kind is unknown"): the refusal says so, not that it is built.
        var refusal = NetworkChecks.NetemRefusal();

        if (!File.Exists("/proc/sys/kernel/osrelease") || Directory.Exists("/sys/module/sch_netem")) return;
        Assert.NotNull(refusal);
        Assert.StartsWith("--network via=netem", refusal, StringComparison.Ordinal);
    }

    [Fact]
    public void NetworkLine_MeasuredLinks_SaysAskedBesideMeasured()
    {
        var record = new KafkaPerf.Measurement.NetworkRecord
        {
            Asked = "client-rtt=5ms,broker-rtt=1ms",
            AskedClientRttMicros = 5_000,
            AskedBrokerRttMicros = 1_000,
            ClientLink = new("client", 400, 5_270, 8_720, 5_160, 17_000),
            BrokerLink = new("broker", 400, 1_100, 1_900, 1_050, 3_000),
            ClientRequest = new("client-request", 100, 7_870, 29_670, 6_500, 70_000),
        };

        Assert.Equal(
            "Runs of network=client-rtt=5ms,broker-rtt=1ms went through the shaping proxies (proxy): the client link's round trip, measured before the first of them, "
            + "p50 5.27 ms, p99 8.72 ms (asked 5.00 ms); between brokers p50 1.10 ms, p99 1.90 ms (asked 1.00 ms); a request to node 1 through it (the broker's answer included) p50 7.87 ms, p99 29.67 ms.",
            RunExecutor.NetworkLine(record));
    }

    private static BenchmarkPlan Plan(params NetworkSpec[] networks) =>
        new BenchmarkPlanBuilder().Clients("a").Scenarios(ScenarioKind.Produce).PayloadSizes(10).MessageCounts(100).Warmup(false).Network(networks).Build();
}
