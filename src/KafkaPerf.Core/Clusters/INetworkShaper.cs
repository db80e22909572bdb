using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Clusters;

/// <summary>The shaping proxies in front of a cluster's nodes (<c>--network</c>), as the runner sees them: it sets each
/// run's spec before the run and reads what the proxies cost around it. Clients never see it: they only reach the proxies'
/// addresses, which the nodes advertise.</summary>
/// <remarks>Shaped by one runner at a time, between runs; <see cref="CpuSeconds"/> is also read at the edges of a run's
/// timed section, to keep the proxies' CPU out of the client's.</remarks>
public interface INetworkShaper
{
    /// <summary>Shapes every link as <paramref name="spec"/> asks, from now on; the first time a spec is asked, measures the
    /// links' real round trip through the proxies before returning.</summary>
    /// <param name="spec">The spec.</param>
    /// <param name="cancellationToken">Stops the measurement.</param>
    /// <returns>What was asked and measured (the run's cost not yet filled in).</returns>
    Task<NetworkRecord> ShapeAsync(NetworkSpec spec, CancellationToken cancellationToken);

    /// <summary>CPU time of every proxy thread so far, in seconds; <see langword="null"/> where it cannot be read.</summary>
    double? CpuSeconds { get; }

    /// <summary>Bytes forwarded so far, every link and direction.</summary>
    long ForwardedBytes { get; }
}
