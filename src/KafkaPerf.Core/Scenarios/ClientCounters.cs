using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Reads a client's own counters and the resources of this process, the client's runtime and the broker around a
/// timed section, and turns their growth into figures per message and a <see cref="RunResources"/>.
/// </summary>
/// <remarks>Both ends run outside the timed section and may allocate. The order keeps each reading out of the others:
/// at the start the probes that cross into a JVM come first and this process's CPU time last; at the end the reverse,
/// so the JNI calls of the runtime probe never count in <c>jni.calls</c> and the probes' own work never counts as CPU.</remarks>
internal sealed class ClientCounters
{
    private readonly ScenarioContext _context;
    private readonly RuntimeReading? _runtime;
    private readonly IReadOnlyList<KeyValuePair<string, long>> _counters;
    private TimeSpan? _brokerCpu;
    private double? _proxyCpu;
    private readonly long? _resident;
    private ProcessResources _process;

    private ClientCounters(ScenarioContext context)
    {
        _context = context;
        _runtime = (context.Client as IRuntimeProbe)?.ReadRuntime();
        _brokerCpu = context.Broker?.ReadCpuTime();
        _counters = context.Client.ReadCounters();
        context.Profiler?.Enable();
        _resident = ResidentMemory.Now();
        _proxyCpu = context.Network?.CpuSeconds;
        _process = ProcessResources.Now();
    }

    /// <summary>Reads everything at the start of a timed section (call it right before the clock starts).</summary>
    public static ClientCounters Start(ScenarioContext context) => new(context);

    /// <summary>Reads again what is cheap to read (this process's CPU, collections and allocations, the broker's CPU:
    /// no call into a JVM or a client) where the timed section really starts, when that is after <see cref="Start"/> and
    /// the reading happens while records are already being timed (a consume's partition assignment).</summary>
    public void Rebase()
    {
        _brokerCpu = _context.Broker?.ReadCpuTime();
        _proxyCpu = _context.Network?.CpuSeconds;
        _process = ProcessResources.Now();
    }

    /// <summary>Reads everything at the end of the timed section (call it right after the clock stops).</summary>
    /// <param name="messages">Messages of the run, for the figures per message.</param>
    /// <param name="harnessAllocatedBytes">Bytes the harness itself allocated meanwhile on threads of its own (a load run's
    /// interval sampler), left out of the client's allocations.</param>
    /// <param name="recordsOnTopic">Records the run wrote to its topic, for the bytes on disk per payload byte, when
    /// more than <paramref name="messages"/> (a rate run's warm-up).</param>
    /// <returns>The client's counters' growth per message (<see langword="null"/> when it keeps none) and the resources used.</returns>
    public (IReadOnlyDictionary<string, double>? PerMessage, RunResources Resources) Stop(long messages, long harnessAllocatedBytes = 0, long? recordsOnTopic = null)
    {
        var process = ProcessResources.Now();
        // The proxies' threads run in this process: their CPU is read at the same edges and kept out of the client's.
        var proxyCpu = _proxyCpu is { } proxyBefore && _context.Network?.CpuSeconds is { } proxyAfter ? proxyAfter - proxyBefore : (double?)null;
        var resident = ResidentMemory.Now();
        _context.Profiler?.Disable();
        var perMessage = PerMessage(_context.Client, _counters, messages);
        var brokerCpu = _brokerCpu is { } before && _context.Broker?.ReadCpuTime() is { } after ? after - before : (TimeSpan?)null;
        var runtime = _runtime is not null ? ((IRuntimeProbe)_context.Client).ReadRuntime() : (RuntimeReading?)null;
        var disk = _context.Broker?.TopicBytesOnDisk(_context.Topic);
        // The topic holds every record the run wrote, a rate run's warm-up too.
        long payloadBytes = (recordsOnTopic ?? messages) * _context.Payload.Length;
        return (perMessage, new RunResources
        {
            CpuUserSeconds = (process.UserCpu - _process.UserCpu).TotalSeconds,
            CpuSystemSeconds = (process.SystemCpu - _process.SystemCpu).TotalSeconds,
            Gen0Collections = process.Gen0Collections - _process.Gen0Collections,
            Gen1Collections = process.Gen1Collections - _process.Gen1Collections,
            Gen2Collections = process.Gen2Collections - _process.Gen2Collections,
            AllocatedBytes = Math.Max(0, process.AllocatedBytes - _process.AllocatedBytes - harnessAllocatedBytes),
            RuntimeGcMillis = runtime?.GcMillis - _runtime?.GcMillis,
            RuntimeGcCount = runtime?.GcCount - _runtime?.GcCount,
            RuntimeHeapUsedBytes = runtime?.HeapUsedBytes,
            RssGrowthBytes = resident - _resident,
            BrokerCpuSeconds = brokerCpu?.TotalSeconds,
            ProxyCpuSeconds = proxyCpu,
            TopicBytesOnDisk = disk,
            DiskBytesPerPayloadByte = disk is { } bytes && payloadBytes > 0 ? bytes / (double)payloadBytes : null,
        });
    }

    /// <summary>Growth per message since <paramref name="before"/>; <see langword="null"/> when the client keeps no counters.</summary>
    private static SortedDictionary<string, double>? PerMessage(IBenchClient client, IReadOnlyList<KeyValuePair<string, long>> before, long messages)
    {
        if (before.Count == 0 || messages <= 0) return null;
        var after = client.ReadCounters().ToDictionary(pair => pair.Key, pair => pair.Value, StringComparer.Ordinal);
        var result = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var (name, value) in before)
        {
            if (after.TryGetValue(name, out var now)) result[name] = (now - value) / (double)messages;
        }
        return result;
    }
}
