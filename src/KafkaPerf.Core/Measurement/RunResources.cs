namespace KafkaPerf.Measurement;

/// <summary>
/// What one run's timed section used: this process's CPU time, .NET collections and allocations, the client's own
/// runtime (the JVM of the java clients), the broker's CPU time and the topic's bytes on disk. Figures that do not
/// apply are <see langword="null"/>.
/// </summary>
public sealed record RunResources
{
    /// <summary>User-mode CPU seconds of this (the client's) process during the timed section, over every thread.</summary>
    public required double CpuUserSeconds { get; init; }

    /// <summary>Kernel CPU seconds of this process during the timed section.</summary>
    public required double CpuSystemSeconds { get; init; }

    /// <summary>.NET generation-0 collections during the timed section (a generation-2 collection counts in all three).</summary>
    public required int Gen0Collections { get; init; }

    /// <summary>.NET generation-1 collections during the timed section.</summary>
    public required int Gen1Collections { get; init; }

    /// <summary>.NET generation-2 collections during the timed section.</summary>
    public required int Gen2Collections { get; init; }

    /// <summary>Bytes allocated on the .NET heap during the timed section, by every thread.</summary>
    public required long AllocatedBytes { get; init; }

    /// <summary>Collection time of the client's own runtime (the JVM) during the timed section, in milliseconds.</summary>
    public long? RuntimeGcMillis { get; init; }

    /// <summary>Collections of the client's own runtime during the timed section.</summary>
    public long? RuntimeGcCount { get; init; }

    /// <summary>Heap in use in the client's own runtime at the end of the timed section.</summary>
    public long? RuntimeHeapUsedBytes { get; init; }

    /// <summary>CPU seconds (user + system) of the broker's process during the timed section; <see langword="null"/>
    /// when the broker is not the embedded one.</summary>
    public double? BrokerCpuSeconds { get; init; }

    /// <summary>Bytes of the topic's log segments on the broker's disk after the run, before the topic was deleted.</summary>
    public long? TopicBytesOnDisk { get; init; }

    /// <summary><see cref="TopicBytesOnDisk"/> over the payload bytes sent (messages × payload size): below 1 when
    /// compression pays for the record and batch overhead.</summary>
    public double? DiskBytesPerPayloadByte { get; init; }

    /// <summary>How much this (the client's) process's resident memory grew during the timed section, in bytes (negative when
    /// it shrank): native memory the .NET heap does not show, such as librdkafka's queues or the in-process JVM's heap; for a
    /// reference tool, <see langword="null"/>.</summary>
    public long? RssGrowthBytes { get; init; }

    /// <summary>CPU seconds (user + system) of the shaping proxies' threads (<c>--network</c>) during the timed section:
    /// they run in this process, so <see cref="CpuUserSeconds"/> and <see cref="CpuSystemSeconds"/> include them and
    /// <see cref="CpuSeconds"/> leaves them out; <see langword="null"/> without a shaped network, off Linux, and on workers
    /// (whose process runs no proxy).</summary>
    public double? ProxyCpuSeconds { get; init; }

    /// <summary>Client CPU seconds, user + system, less the shaping proxies' (<see cref="ProxyCpuSeconds"/>).</summary>
    public double CpuSeconds => Math.Max(0, CpuUserSeconds + CpuSystemSeconds - (ProxyCpuSeconds ?? 0));
}
