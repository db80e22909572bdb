using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Running;

public class ReferenceRunTests
{
    /// <summary>A reference tool of the tests' own: topics live in the in-memory client, runs only record what was asked.</summary>
    private sealed class ToolFactory : IBenchClientFactory
    {
        public List<(ScenarioKind Scenario, string Topic, long Messages, int PayloadBytes)> Runs { get; } = [];

        public string Name => "tool";

        public string Description => "a test reference";

        public bool IsReference => true;

        public bool RequiresBroker => false;

        public IBenchClient Create(KafkaEndpoint endpoint) =>
            new Tool(new InMemoryClientFactory(new InMemoryClientOptions { Name = Name }).Create(endpoint), Runs);
    }

    private sealed class Tool(IBenchClient topics, List<(ScenarioKind, string, long, int)> runs) : IReferenceClient
    {
        public string Name => "tool";

        public string LibraryVersion => "tool 1.0";

        public ClientCapabilities Capabilities => ClientCapabilities.None;

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink) => throw new NotSupportedException();

        public IBenchConsumer CreateConsumer(ConsumerSpec spec) => throw new NotSupportedException();

        public ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken) => topics.CreateTopicAsync(topic, cancellationToken);

        public ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken) => topics.DeleteTopicAsync(topic, cancellationToken);

        public RunRecord Run(ScenarioKind scenario, ScenarioContext context, CancellationToken cancellationToken)
        {
            runs.Add((scenario, context.Topic, context.MessageCount, context.Payload.Length));
            return new RunRecord { ElapsedSeconds = 0.01, Sent = context.MessageCount, Delivered = context.MessageCount };
        }

        public ValueTask DisposeAsync() => topics.DisposeAsync();
    }

    private static BenchmarkPlan Plan() => new BenchmarkPlanBuilder().Clients("inmemory").References("tool")
        .Scenarios(ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Roundtrip).MessageCounts(500).PayloadSizes(20).Repeat(2).Build();

    [Fact]
    public void Plan_ReferencesRunProduceAndConsumeWithoutWarmup()
    {
        var plan = Plan();

        Assert.Equal(["inmemory", "tool"], plan.Clients);
        Assert.Equal(["tool"], plan.References);
        // inmemory: 3 cells × (2 + warm-up); tool: 2 cells × 2.
        Assert.Equal(3 * 3 + 2 * 2, plan.TotalRuns);
        Assert.Equal(["inmemory"], plan.ClientsFor(plan.Cells().Single(c => c.Scenario == ScenarioKind.Roundtrip)));
    }

    [Fact]
    public async Task RunAsync_ReferenceRunsItsCellsInTheBalancedOrderAndIsCompared()
    {
        var tool = new ToolFactory();
        var runner = new BenchmarkRunner(new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions()), tool]), ClusterConnection.None);

        var result = await runner.RunAsync(Plan(), cancellationToken: TestRunContext.Current);

        Assert.Equal(13, result.Runs.Count);
        Assert.Equal([ScenarioKind.Produce, ScenarioKind.Produce, ScenarioKind.Consume, ScenarioKind.Consume], tool.Runs.Select(r => r.Scenario));
        Assert.All(tool.Runs, r => Assert.Equal((500, 20), (r.Messages, r.PayloadBytes)));
        Assert.Equal(4, tool.Runs.Select(r => r.Topic).Distinct().Count());
        // Per cell: the client's warm-up, then client and reference alternate.
        Assert.Equal(["inmemory", "inmemory", "tool", "tool", "inmemory"],
            result.Runs.Where(r => r.Scenario == ScenarioKind.Produce).Select(r => r.Client));
        Assert.DoesNotContain(result.Runs, r => r.Client == "tool" && (r.IsWarmup || r.Scenario == ScenarioKind.Roundtrip));
        Assert.All(result.Runs.Where(r => r.Client == "tool"), r => Assert.Equal(50_000, r.MessagesPerSecond, 6));
        Assert.Equal([ScenarioKind.Produce, ScenarioKind.Consume],
            result.Comparisons.Where(c => c.Candidate == "tool" && c.Baseline == "inmemory").Select(c => c.Scenario));
    }

    [Fact]
    public void Validate_ReferenceAsClientOrClientAsReference_SaysWhereItBelongs()
    {
        var registry = new ClientRegistry([new InMemoryClientFactory(new InMemoryClientOptions()), new ToolFactory()]);
        var runner = new BenchmarkRunner(registry, ClusterConnection.None);
        BenchmarkPlan Build(string client, string reference) =>
            new BenchmarkPlanBuilder().Clients(client).References(reference).Scenarios(ScenarioKind.Produce).MessageCounts(1).PayloadSizes(1).Build();

        var swapped = runner.Validate(Build("tool", "inmemory")).Select(e => e.Message).ToList();

        Assert.Contains("'tool' is a reference tool, not a client: name it in --references.", swapped);
        Assert.Contains("'inmemory' is a client, not a reference tool: name it in --clients.", swapped);
        Assert.Equal("Unknown reference 'nope': choose from tool.", Assert.Single(runner.Validate(Build("inmemory", "nope"))).Message);
    }
}
