namespace KafkaPerf.Measurement;

/// <summary>This process's CPU time, garbage collections and allocated bytes at one moment; two readings around a timed
/// section give what the section used.</summary>
/// <param name="UserCpu">CPU time spent in user mode by every thread of the process so far.</param>
/// <param name="SystemCpu">CPU time spent in the kernel on the process's behalf so far.</param>
/// <param name="Gen0Collections">Generation-0 collections so far.</param>
/// <param name="Gen1Collections">Generation-1 collections so far.</param>
/// <param name="Gen2Collections">Generation-2 collections so far.</param>
/// <param name="AllocatedBytes">Bytes allocated on the managed heap by every thread so far.</param>
public readonly record struct ProcessResources(
    TimeSpan UserCpu, TimeSpan SystemCpu, int Gen0Collections, int Gen1Collections, int Gen2Collections, long AllocatedBytes)
{
    /// <summary>Reads the counters now.</summary>
    /// <returns>The reading.</returns>
    /// <remarks>Allocates nothing and takes about 4 µs: measured on the 2-core development machine, <see cref="Environment.CpuUsage"/>
    /// (one <c>getrusage</c> call) took 2.3 µs and the precise allocated-bytes count 1.9 µs, where
    /// <c>Process.UserProcessorTime</c> took 8.5 µs and 264 bytes and reading <c>/proc/self/stat</c> 20 to 60 µs. Read at the
    /// edges of a timed section only, never per message.</remarks>
    public static ProcessResources Now()
    {
        var cpu = Environment.CpuUsage;
        return new ProcessResources(
            cpu.UserTime, cpu.PrivilegedTime, GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2),
            GC.GetTotalAllocatedBytes(precise: true));
    }
}
