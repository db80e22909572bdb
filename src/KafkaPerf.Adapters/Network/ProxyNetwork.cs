using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Adapters.Network;

/// <summary>
/// The shaping proxies of an embedded cluster (<c>--network</c>): per node, one in front of its client listener and one in
/// front of its inter-broker listener, which the node advertises in place of its own ports. The runner shapes them per
/// run (<see cref="ShapeAsync"/>); the first time a spec is asked, the links' real round trip is measured through them.
/// </summary>
/// <remarks>Dispose closes every proxy's listener and connections and waits (briefly) until their threads have ended.</remarks>
internal sealed class ProxyNetwork : INetworkShaper, IDisposable
{
    /// <summary>About how long the round-trip probe of one link lasts: enough echoes for a p99, not more.</summary>
    private static readonly TimeSpan ProbeBudget = TimeSpan.FromSeconds(2);

    private readonly ConcurrentDictionary<NetworkSpec, NetworkRecord> _measured = new();
    private readonly List<(ShapingProxy Client, ShapingProxy Internal)> _nodes;

    /// <summary>Opens the proxies' ports (nothing is accepted until <see cref="Start"/>).</summary>
    /// <param name="nodes">How many nodes.</param>
    internal ProxyNetwork(int nodes)
    {
        _nodes = new(nodes);
        try
        {
            for (int i = 1; i <= nodes; i++)
                _nodes.Add((new ShapingProxy($"kp-n{i}c", Threads), new ShapingProxy($"kp-n{i}b", Threads)));
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>Every proxy thread, counted.</summary>
    internal ProxyThreads Threads { get; } = new();

    /// <summary>Where progress lines go (the measured round trips); none when <see langword="null"/>.</summary>
    internal TextWriter? Log { get; set; }

    /// <summary>Node <paramref name="nodeId"/>'s client proxy (from 1).</summary>
    internal ShapingProxy ClientProxy(int nodeId) => _nodes[nodeId - 1].Client;

    /// <summary>Node <paramref name="nodeId"/>'s inter-broker proxy (from 1).</summary>
    internal ShapingProxy InternalProxy(int nodeId) => _nodes[nodeId - 1].Internal;

    /// <summary>Points node <paramref name="nodeId"/>'s proxies at its listeners and starts them.</summary>
    internal void Start(int nodeId, int clientPort, int internalPort)
    {
        var (client, internalProxy) = _nodes[nodeId - 1];
        client.Target = new IPEndPoint(IPAddress.Loopback, clientPort);
        internalProxy.Target = new IPEndPoint(IPAddress.Loopback, internalPort);
        client.Start();
        internalProxy.Start();
    }

    /// <inheritdoc />
    public double? CpuSeconds => Threads.CpuSeconds;

    /// <inheritdoc />
    public long ForwardedBytes => _nodes.Sum(n => n.Client.ForwardedBytes + n.Internal.ForwardedBytes);

    /// <inheritdoc />
    public async Task<NetworkRecord> ShapeAsync(NetworkSpec spec, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(spec);
        foreach (var (client, internalProxy) in _nodes)
        {
            client.Set(spec.ClientOneWay, spec.Jitter, spec.RateBitsPerSecond);
            internalProxy.Set(spec.BrokerOneWay, spec.Jitter, spec.RateBitsPerSecond);
        }
        if (_measured.TryGetValue(spec, out var known)) return known;
        var record = await Task.Factory.StartNew(() => Measure(spec), cancellationToken, TaskCreationOptions.LongRunning, TaskScheduler.Default)
            .ConfigureAwait(false);
        _measured[spec] = record;
        Log?.WriteLine($"kafkaperf: network {spec}: client link {Describe(record.ClientLink!, spec.ClientRtt)}"
            + (record.BrokerLink is { } broker ? $"; between brokers {Describe(broker, spec.BrokerRtt)}" : string.Empty)
            + string.Create(CultureInfo.InvariantCulture, $"; an ApiVersions request to node 1 through it p50 {record.ClientRequest!.P50Micros / 1000:0.00} ms, p99 {record.ClientRequest.P99Micros / 1000:0.00} ms"));
        return record;
    }

    /// <summary>A measured link beside the asked round trip, e.g. <c>round trip p50 5.04 ms, p99 5.21 ms (asked 5 ms; 400
    /// echoes)</c>.</summary>
    internal static string Describe(LinkRoundTrip link, TimeSpan asked) => string.Create(CultureInfo.InvariantCulture,
        $"round trip p50 {link.P50Micros / 1000:0.00} ms, p99 {link.P99Micros / 1000:0.00} ms (asked {asked.TotalMilliseconds:0.###} ms; {link.Samples} echoes)");

    private NetworkRecord Measure(NetworkSpec spec)
    {
        var timeout = spec.ClientRtt * 4 + TimeSpan.FromSeconds(10);
        var record = new NetworkRecord
        {
            Asked = spec.ToString(),
            AskedClientRttMicros = spec.ClientRtt.TotalMicroseconds,
            AskedBrokerRttMicros = spec.BrokerRtt.TotalMicroseconds,
            ClientLink = LinkRoundTrip.Of("client", EchoProbe.Measure(_nodes[0].Client, Samples(spec.ClientRtt), Warmup, timeout)),
            ClientRequest = LinkRoundTrip.Of("client-request", ApiVersionsProbe.Measure(
                new IPEndPoint(IPAddress.Loopback, _nodes[0].Client.Port), Samples(spec.ClientRtt) / 4, Warmup, timeout)),
        };
        return _nodes.Count > 1
            ? record with { BrokerLink = LinkRoundTrip.Of("broker", EchoProbe.Measure(_nodes[0].Internal, Samples(spec.BrokerRtt), Warmup, spec.BrokerRtt * 4 + TimeSpan.FromSeconds(10))) }
            : record;
    }

    private const int Warmup = 20;

    /// <summary>Enough samples for a p99 within <see cref="ProbeBudget"/>: 400 at 5 ms or less, 100 at 20 ms.</summary>
    private static int Samples(TimeSpan rtt) => (int)Math.Clamp(ProbeBudget / TimeSpan.FromTicks(Math.Max(rtt.Ticks, 1)), 100, 400);

    /// <summary>Closes every proxy and waits up to 2 s for their threads to end.</summary>
    public void Dispose()
    {
        foreach (var (client, internalProxy) in _nodes)
        {
            client.Dispose();
            internalProxy.Dispose();
        }
        Threads.WaitEnded(TimeSpan.FromSeconds(2));
    }
}
