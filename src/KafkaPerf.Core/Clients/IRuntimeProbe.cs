using KafkaPerf.Measurement;

namespace KafkaPerf.Clients;

/// <summary>
/// Implemented by an <see cref="IBenchClient"/> whose library runs on a managed runtime of its own (the JVM of the
/// java clients): read before and after every timed section, so each run records that runtime's garbage-collection
/// time and heap beside .NET's.
/// </summary>
/// <remarks>Called outside timed sections only; it may allocate and cross into the runtime.</remarks>
public interface IRuntimeProbe
{
    /// <summary>Reads the runtime's counters now.</summary>
    /// <returns>The reading.</returns>
    RuntimeReading ReadRuntime();
}
