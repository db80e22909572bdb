using KafkaPerf.Clients;

namespace KafkaPerf.Plans;

/// <summary>The sweeps: a plan's settings variants are the product of every knob's values, and an override that sets a
/// swept knob is found by its client-specific name.</summary>
public sealed partial class BenchmarkPlanBuilder
{
    /// <summary>The common knob a client's own key sets (librdkafka and the Java client spell some differently).</summary>
    private static string? KnobOf(string key) => key switch
    {
        "acks" or "request.required.acks" => "acks",
        "linger.ms" or "queue.buffering.max.ms" => "linger.ms",
        "batch.size" => "batch.size",
        "max.in.flight" or "max.in.flight.requests.per.connection" => "max.in.flight",
        "send.buffer.bytes" or "socket.send.buffer.bytes" => "send.buffer.bytes",
        "receive.buffer.bytes" or "socket.receive.buffer.bytes" => "receive.buffer.bytes",
        "fetch.min.bytes" => "fetch.min.bytes",
        "compression.type" or "compression.codec" => "compression",
        "enable.idempotence" => "idempotence",
        _ => null,
    };

    private bool IsSet(string knob) => knob switch
    {
        "acks" => _acks.Length > 0,
        "linger.ms" => _lingerMs.Length > 0,
        "batch.size" => _batchSize.Length > 0,
        "max.in.flight" => _maxInFlight.Length > 0,
        "send.buffer.bytes" => _sendBuffer.Length > 0,
        "receive.buffer.bytes" => _receiveBuffer.Length > 0,
        "fetch.min.bytes" => _fetchMinBytes.Length > 0,
        "idempotence" => _idempotence.Length > 0,
        _ => _compression.Length > 0,
    };

    private List<ClientSettings> Variants()
    {
        IEnumerable<ClientSettings> variants = [ClientSettings.ClientDefaults];
        variants = Sweep(variants, _acks, (s, v) => s with { Acks = v });
        variants = Sweep(variants, _lingerMs, (s, v) => s with { LingerMs = v });
        variants = Sweep(variants, _batchSize, (s, v) => s with { BatchSizeBytes = v });
        variants = Sweep(variants, _maxInFlight, (s, v) => s with { MaxInFlight = v });
        variants = Sweep(variants, _sendBuffer, (s, v) => s with { SendBufferBytes = v });
        variants = Sweep(variants, _receiveBuffer, (s, v) => s with { ReceiveBufferBytes = v });
        variants = Sweep(variants, _fetchMinBytes, (s, v) => s with { FetchMinBytes = v });
        variants = Sweep(variants, _compression, (s, v) => s with { Compression = v });
        variants = Sweep(variants, _partitions, (s, v) => s with { Partitions = v });
        variants = Sweep(variants, _producers, (s, v) => s with { Producers = v });
        variants = Sweep(variants, _consumers, (s, v) => s with { Consumers = v });
        variants = SweepWorkload(variants);
        variants = SweepGroup(variants);
        return [.. Sweep(variants, _network, (s, v) => s with { Network = v })];
    }

    private static IEnumerable<ClientSettings> Sweep<T>(IEnumerable<ClientSettings> variants, T[] values, Func<ClientSettings, T, ClientSettings> apply) =>
        values.Length == 0 ? variants : variants.SelectMany(s => values.Distinct().Select(v => apply(s, v)));
}
