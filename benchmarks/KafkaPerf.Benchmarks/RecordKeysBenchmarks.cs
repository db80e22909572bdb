using BenchmarkDotNet.Attributes;
using KafkaPerf.Clients;

namespace KafkaPerf.Benchmarks;

/// <summary>What choosing a record's key costs on the send path (<see cref="RecordKeys.KeyOf"/>), per distribution: a
/// mix and a modulo for random keys, a binary search of the cumulative thresholds for zipf keys.</summary>
[MemoryDiagnoser]
public class RecordKeysBenchmarks
{
    private const int Records = 1_000_000;
    private RecordKeys _keys = null!;

    [Params("unique", "random:1000", "zipf:1000:1.1", "zipf:1000000:1.1")]
    public string Keys { get; set; } = "unique";

    [GlobalSetup]
    public void Setup() => _keys = new RecordKeys(KeySpec.Parse(Keys));

    [Benchmark(OperationsPerInvoke = Records)]
    public int KeyOf()
    {
        int sum = 0;
        for (long id = 0; id < Records; id++) sum += _keys.KeyOf(id)![^1];
        return sum;
    }
}
