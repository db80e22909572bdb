using BenchmarkDotNet.Attributes;
using HdrHistogram;
using KafkaPerf.Measurement;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// What recording one latency costs, on the hot path of every acknowledged or consumed record: KafkaPerf's own
/// <see cref="LatencyHistogram"/> against HdrHistogram.NET's <see cref="LongHistogram"/> (single writer) and its
/// <see cref="Recorder"/> (many writers, interval histograms swapped by a reader), and the single-writer histogram behind
/// an uncontended lock, which is how a delivery sink served by two threads records today. One operation = one value,
/// from a fixed set of 65 536 log-uniform values between 1 µs and 100 ms (in nanoseconds), so branches and cache lines
/// behave as with real latencies.
/// </summary>
[MemoryDiagnoser]
public class HistogramBenchmarks
{
    private const int Values = 1 << 16;
    private const long Highest = 3_600_000_000_000;
    private readonly long[] _values = new long[Values];
    private readonly Lock _gate = new();
    private LatencyHistogram _own = null!;
    private LongHistogram _hdr = null!;
    private Recorder _recorder = null!;

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        for (int i = 0; i < Values; i++) _values[i] = (long)Math.Pow(10, 3 + (random.NextDouble() * 5));
        _own = new LatencyHistogram(Highest, 3);
        _hdr = new LongHistogram(Highest, 3);
        _recorder = HistogramFactory.With64BitBucketSize().WithValuesUpTo(Highest).WithPrecisionOf(3).WithThreadSafeReads().Create();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Values)]
    public void OwnHistogram()
    {
        var h = _own;
        foreach (var value in _values) h.RecordValue(value);
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void OwnHistogramUnderLock()
    {
        var h = _own;
        foreach (var value in _values)
        {
            lock (_gate) h.RecordValue(value);
        }
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrLongHistogram()
    {
        var h = _hdr;
        // HdrHistogram.NET throws for a value above its highest trackable one: a recorder must clamp first.
        foreach (var value in _values) h.RecordValue(Math.Min(value, Highest));
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrRecorder()
    {
        var r = _recorder;
        foreach (var value in _values) r.RecordValue(Math.Min(value, Highest));
    }
}
