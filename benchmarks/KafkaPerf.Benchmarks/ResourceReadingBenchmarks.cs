using System.Diagnostics;
using BenchmarkDotNet.Attributes;
using KafkaPerf.Measurement;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// What one resource reading at the edge of a timed section costs (<see cref="ProcessResources.Now"/>, taken twice per
/// run), beside the process-wide alternatives it was chosen over.
/// </summary>
[MemoryDiagnoser]
public class ResourceReadingBenchmarks
{
    [Benchmark(Baseline = true)]
    public ProcessResources Now() => ProcessResources.Now();

    [Benchmark]
    public TimeSpan ProcessorTimeOfProcess()
    {
        using var process = Process.GetCurrentProcess();
        return process.UserProcessorTime + process.PrivilegedProcessorTime;
    }
}
