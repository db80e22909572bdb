using BenchmarkDotNet.Attributes;
using HdrHistogram;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// What recording one latency costs, on the hot path of every acknowledged or consumed record: HdrHistogram.NET's
/// <see cref="LongHistogram"/> (single writer; also behind an uncontended lock, as a delivery sink that two threads may
/// call records into it) and its <see cref="Recorder"/> (many writers, interval histograms taken by a reader). One
/// operation = one value, from a fixed set of 65 536 log-uniform values between 1 µs and 100 ms (in nanoseconds), so
/// branches and cache lines behave as with real latencies. Until commit e6e0fec it also measured KafkaPerf's own
/// histogram, which HdrHistogram replaced (docs/BENCHMARKS.md).
/// </summary>
[MemoryDiagnoser]
public class HistogramBenchmarks
{
    private const int Values = 1 << 16;
    private const long Highest = 3_600_000_000_000;
    private readonly long[] _values = new long[Values];
    private readonly Lock _gate = new();
    private LongHistogram _hdr = null!;
    private Recorder _recorder = null!;

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        for (int i = 0; i < Values; i++) _values[i] = (long)Math.Pow(10, 3 + (random.NextDouble() * 5));
        _hdr = new LongHistogram(Highest, 3);
        _recorder = HistogramFactory.With64BitBucketSize().WithValuesUpTo(Highest).WithPrecisionOf(3).WithThreadSafeReads().Create();
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrLongHistogramUnderLock()
    {
        var h = _hdr;
        foreach (var value in _values)
        {
            lock (_gate) h.RecordValue(Math.Min(value, Highest));
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Values)]
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
