using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Core.Tests.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Running;

/// <summary>The session is the one place a plan is refused: every refusal, those of a plan that workers would run
/// included, is said before the broker or any worker starts.</summary>
public class BenchmarkSessionTests
{
    private const ClientCapabilities Everything = ClientCapabilities.Transactions | ClientCapabilities.ShareGroups | ClientCapabilities.Workloads | ClientCapabilities.GroupMembership;

    public static TheoryData<string, string> WorkerRefusals => new()
    {
        { "memory", "--workers and --processes meet on the Kafka cluster" },
        { "fault", "workers (--processes, --workers) do not take faults or membership events yet" },
        { "transactions", "Workers (--processes, --workers) do not run transactions, a backlog or share groups yet" },
        { "backlog", "Workers (--processes, --workers) do not run transactions, a backlog or share groups yet" },
        { "share", "Workers (--processes, --workers) do not run transactions, a backlog or share groups yet" },
        { "static", "Workers (--processes, --workers) do not run static membership yet (each would give its members the same instance ids)" },
        { "secret", "-X a:sasl.password holds a secret, and workers get the plan as a document that never carries one" },
    };

    [Theory]
    [MemberData(nameof(WorkerRefusals))]
    public async Task PlanThatWorkersCannotRun_RefusedBeforeTheBrokerOrAnyWorkerStarts(string what, string expected)
    {
        var source = new RecordingSource();
        int workerGroups = 0;
        var registry = new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = what != "memory", Capabilities = Everything }]);
        await using var session = new BenchmarkSession(PlanFor(what), registry, source, new SessionOptions
        {
            Remote = (_, _) =>
            {
                workerGroups++;
                throw new InvalidOperationException("the workers were asked for");
            },
        });

        var findings = session.Validate();
        var refused = await Assert.ThrowsAsync<PlanValidationException>(() => session.StartAsync(TestRunContext.Current));

        Assert.Contains(findings, f => f.Message.Contains(expected, StringComparison.Ordinal));
        Assert.Single(findings);
        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, source.Connects);
        Assert.Equal(0, workerGroups);
    }

    [Theory]
    [MemberData(nameof(WorkerRefusals))]
    public void SamePlanInThisProcess_NotRefusedForWorkers(string what, string expected)
    {
        var registry = new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = what != "memory", Capabilities = Everything }]);
        var session = new BenchmarkSession(PlanFor(what), registry, new RecordingSource());

        Assert.DoesNotContain(session.Validate(), f => f.Message.Contains(expected, StringComparison.Ordinal));
    }

    [Fact]
    public async Task SourceThatCannotHoldThePlan_RefusedBeforeItStarts()
    {
        var source = new RecordingSource { Refusal = "the embedded broker's disk is too small" };
        var registry = new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = true }]);
        await using var session = new BenchmarkSession(PlanFor("memory"), registry, source);

        var refused = await Assert.ThrowsAsync<PlanValidationException>(() => session.StartAsync(TestRunContext.Current));

        Assert.Equal("the embedded broker's disk is too small", Assert.Single(session.Validate()).Message);
        Assert.Contains("disk is too small", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, source.Connects);
    }

    [Fact]
    public async Task NetworkOnASourceWithoutProxies_RefusedBeforeItStarts()
    {
        var source = new RecordingSource();
        var registry = new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = true }]);
        await using var session = new BenchmarkSession(PlanFor("network"), registry, source);

        var refused = await Assert.ThrowsAsync<PlanValidationException>(() => session.StartAsync(TestRunContext.Current));

        Assert.Contains("--network shapes only the embedded broker or cluster", Assert.Single(session.Validate()).Message, StringComparison.Ordinal);
        Assert.Contains("with tc", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, source.Connects);
        Assert.Empty(new BenchmarkSession(PlanFor("network"), registry, new RecordingSource { ShapesNetwork = true }).Validate());
    }

    [Fact]
    public async Task NetworkOnWorkers_TakenWhereTheBrokerHasProxiesRefusedWhereNot()
    {
        // Local workers reach the broker this process starts through its proxies, which this process shapes per run: not
        // refused. Workers of a cluster without proxies are refused it, as a run of this process would be.
        var registry = new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = "a" }) { RequiresBroker = true }]);
        var remote = new SessionOptions { Remote = (_, _) => throw new InvalidOperationException("not started here") };
        await using var proxied = new BenchmarkSession(PlanFor("network"), registry, new RecordingSource { ShapesNetwork = true }, remote);
        await using var direct = new BenchmarkSession(PlanFor("network"), registry, new RecordingSource(), remote);

        Assert.Empty(proxied.Validate());
        Assert.Contains("--network shapes only the embedded broker or cluster", Assert.Single(direct.Validate()).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void SourceRefusal_NotAskedWhenNoClientNeedsABroker()
    {
        var source = new RecordingSource { Refusal = "the embedded broker's disk is too small" };
        var registry = new ClientRegistry([new TestClientFactory(new InMemoryClientOptions { Name = "a" })]);

        Assert.Empty(new BenchmarkSession(PlanFor("memory"), registry, source).Validate());
    }

    private static BenchmarkPlan PlanFor(string what)
    {
        var plan = new BenchmarkPlanBuilder().Clients("a").PayloadSizes(10).Warmup(false);
        if (what is not ("fault" or "backlog")) plan.MessageCounts(100);
        return (what switch
        {
            "fault" => plan.Scenarios(ScenarioKind.Produce).Rates(100).Duration(TimeSpan.FromSeconds(5)).Faults(["exec@2s:true"]),
            "transactions" => plan.Scenarios(ScenarioKind.Produce).Transactions(10),
            "backlog" => plan.Scenarios(ScenarioKind.Roundtrip).Rates(1000).Duration(TimeSpan.FromSeconds(2)).Backlog(10_000),
            "share" => plan.Scenarios(ScenarioKind.Consume).Group(ConsumerGroupKind.Share),
            "secret" => plan.Scenarios(ScenarioKind.Produce).Override("a", "sasl.password", "TopSecret1"),
            "static" => plan.Scenarios(ScenarioKind.Consume).Consumers(2).StaticMembership(true),
            "network" => plan.Scenarios(ScenarioKind.Produce).Network(NetworkSpec.Parse("rtt=5ms")),
            _ => plan.Scenarios(ScenarioKind.Produce),
        }).Build();
    }

    /// <summary>A broker source that says whether it was asked to start; it never starts anything.</summary>
    private sealed class RecordingSource : IBrokerSource
    {
        public int Connects { get; private set; }

        public string? Refusal { get; init; }

        public int? KnownBrokers => 1;

        public bool ShapesNetwork { get; init; }

        public string? RefusePlan(BenchmarkPlan plan) => Refusal;

        public Task<IBrokerLease> ConnectAsync(TextWriter? log, CancellationToken cancellationToken)
        {
            Connects++;
            throw new InvalidOperationException("the broker was started");
        }
    }
}
