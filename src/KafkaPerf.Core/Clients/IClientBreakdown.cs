namespace KafkaPerf.Clients;

/// <summary>
/// Implemented by a producer that can say where its records' time went, from the client's own statistics: how long a
/// record waited in the client before its request went out, how long the request took (network and broker), how large
/// the batches and requests were and how long the broker throttled it. Read once per interval on KafkaPerf's sampler
/// thread, never on the send path.
/// </summary>
/// <remarks>Created only when <see cref="ProducerSpec.Statistics"/> asks for it (the client may have to turn its
/// statistics on). Each figure is the client's own average over its latest statistics window (librdkafka: its
/// <c>statistics.interval.ms</c>; the Java client: its metrics' sample windows), so it is as fine-grained as the
/// client's windows are.</remarks>
public interface IClientBreakdown
{
    /// <summary>Reads the client's latest figures; may cross into the client's runtime, never blocks on the network.</summary>
    /// <returns>The figures; each <see langword="null"/> when the client does not give it (yet).</returns>
    ClientBreakdown ReadBreakdown();
}

/// <summary>A producer's or consumer's own figures of where a record's time went (averages over the client's latest window).</summary>
/// <param name="QueueMs">Time a record waited in the client before its request was sent (librdkafka: <c>int_latency</c>
/// + <c>outbuf_latency</c>; Java: <c>record-queue-time-avg</c>), in milliseconds.</param>
/// <param name="RequestMs">Time a produce request took, from sent to answered: network and broker (librdkafka:
/// <c>rtt</c>; Java: <c>request-latency-avg</c>), in milliseconds.</param>
/// <param name="BatchBytes">Average batch size in bytes.</param>
/// <param name="RecordsPerRequest">Records per produce request (librdkafka: per batch, <c>batchcnt</c>).</param>
/// <param name="ThrottleMs">Time the broker throttled the client, in milliseconds.</param>
/// <param name="FetchMs">A consumer's fetch request time, in milliseconds (a producer: <see langword="null"/>).</param>
/// <param name="Lag">A consumer's lag behind the end of its partitions, in records, as the client sees it.</param>
public readonly record struct ClientBreakdown(double? QueueMs, double? RequestMs, double? BatchBytes, double? RecordsPerRequest, double? ThrottleMs,
    double? FetchMs = null, double? Lag = null);
