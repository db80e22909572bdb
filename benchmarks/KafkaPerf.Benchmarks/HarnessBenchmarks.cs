using BenchmarkDotNet.Attributes;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// The harness's own cost per message, measured with the in-memory client: every number here is a ceiling on
/// what any real client can be measured at. One invocation is one whole scenario run of <see cref="Messages"/>
/// records, so "per operation" below means per message, run set-up included.
/// </summary>
[MemoryDiagnoser]
public class HarnessBenchmarks
{
    public const int Messages = 1_000_000;
    private readonly byte[] _payload = new byte[100];
    private InMemoryClient _client = null!;
    private int _topic;

    /// <summary>Unique keys (the id is the key), or keys that repeat: then every record's id is stamped into its value
    /// on the way in and read from it on the way out (RecordIdInValue).</summary>
    [Params("unique", "zipf:1000:1.1")]
    public string Keys { get; set; } = "unique";

    [GlobalSetup]
    public void Setup() => _client = new InMemoryClient(new InMemoryClientOptions());

    [GlobalCleanup]
    public void Cleanup() => _client.DisposeAsync().AsTask().GetAwaiter().GetResult();

    [Benchmark(OperationsPerInvoke = Messages)]
    public double Produce() => Run(Scenario.Produce);

    [Benchmark(OperationsPerInvoke = Messages)]
    public double Roundtrip() => Run(Scenario.Roundtrip);

    private double Run(IScenario scenario)
    {
        var topic = "bench-" + _topic++;
        _client.CreateTopicAsync(new TopicSpec(topic), default).AsTask().GetAwaiter().GetResult();
        var measurement = scenario.Run(new ScenarioContext
        {
            Client = _client, Topic = topic, MessageCount = Messages, Payload = _payload,
            Settings = ClientSettings.ClientDefaults with { Keys = Keys == "unique" ? null : KeySpec.Parse(Keys) },
        }, CancellationToken.None);
        _client.DeleteTopicAsync(topic, default).AsTask().GetAwaiter().GetResult();
        if (!measurement.Succeeded) throw new InvalidOperationException(measurement.Error);
        return measurement.ElapsedSeconds;
    }
}
