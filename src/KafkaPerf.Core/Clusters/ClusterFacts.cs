using KafkaPerf.Clients;

namespace KafkaPerf.Clusters;

/// <summary>What a plan's checks need to know of a cluster, and all they are given: known before the cluster starts
/// (from its broker source) as well as after (from its <see cref="ClusterConnection"/>), so that a plan is refused
/// before anything starts without a stand-in connection.</summary>
/// <param name="HasBroker">Whether clients that need a broker have one.</param>
/// <param name="Brokers">How many brokers the cluster has, when known.</param>
/// <param name="Ephemeral">Whether the cluster was started for the plan (and has served no load before it).</param>
/// <param name="BrokerName">What to call the broker in a line for the user.</param>
/// <param name="RefuseFault">Why the cluster cannot do a fault (one line), or <see langword="null"/> when it can;
/// <see langword="null"/> itself where no fault can run.</param>
internal sealed record ClusterFacts(bool HasBroker, int? Brokers, bool Ephemeral, string BrokerName, Func<FaultSpec, string?>? RefuseFault)
{
    /// <summary>Whether shaping proxies stand in front of the nodes, so that <c>--network</c> can run.</summary>
    public bool ShapesNetwork { get; init; }
}
