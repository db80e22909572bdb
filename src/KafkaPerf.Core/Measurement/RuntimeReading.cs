namespace KafkaPerf.Measurement;

/// <summary>What a client's own managed runtime (the in-process JVM of the java clients) reports about itself.</summary>
/// <param name="GcCount">Garbage collections so far, over every collector.</param>
/// <param name="GcMillis">Accumulated collection time so far, in milliseconds, over every collector.</param>
/// <param name="HeapUsedBytes">Heap in use now.</param>
public readonly record struct RuntimeReading(long GcCount, long GcMillis, long HeapUsedBytes);
