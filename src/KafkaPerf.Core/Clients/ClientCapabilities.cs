namespace KafkaPerf.Clients;

/// <summary>What a client adapter can do beyond the minimum contract.</summary>
[Flags]
public enum ClientCapabilities
{
    /// <summary>Only the minimum contract.</summary>
    None = 0,

    /// <summary>The consumer can prefetch records on a thread of its own (<c>UsePrefetch</c>).</summary>
    Prefetch = 1,

    /// <summary>Delivery reports arrive per record when the broker acknowledges it, so send→ack latency means something.</summary>
    DeliveryLatency = 2,
}
