namespace KafkaPerf.Measurement;

/// <summary>The network a run went through (<c>--network</c>): what was asked, what the links measured before the first
/// run that asked for it, and what the shaping proxies cost during the run.</summary>
public sealed record NetworkRecord
{
    /// <summary>The spec as asked, canonically (<c>rtt=5ms,jitter=0.2ms</c>).</summary>
    public string Asked { get; init; } = string.Empty;

    /// <summary>What shaped the links: <c>proxy</c> (KafkaPerf's shaping proxy in front of each node).</summary>
    public string Via { get; init; } = "proxy";

    /// <summary>The asked round trip of a client link, in microseconds.</summary>
    public double AskedClientRttMicros { get; init; }

    /// <summary>The asked round trip of an inter-broker link, in microseconds.</summary>
    public double AskedBrokerRttMicros { get; init; }

    /// <summary>The client link's measured round trip: small messages echoed through node 1's client link (its proxy's
    /// shaping, the loopback hops both ways), the node's own answer time left out.</summary>
    public LinkRoundTrip? ClientLink { get; init; }

    /// <summary>The inter-broker link's measured round trip, the same way; absent for one node.</summary>
    public LinkRoundTrip? BrokerLink { get; init; }

    /// <summary>A Kafka request's round trip to node 1 through its client proxy (<c>ApiVersions</c>, which the node answers
    /// from memory): the link plus the node's answer time, as a client sees it.</summary>
    public LinkRoundTrip? ClientRequest { get; init; }

    /// <summary>CPU time (user + system) of every proxy thread over the run, in seconds; absent where the operating system
    /// does not say (only Linux is read).</summary>
    public double? ProxyCpuSeconds { get; init; }

    /// <summary>Bytes the proxies forwarded during the run, both directions, every link.</summary>
    public long ProxyBytes { get; init; }
}
