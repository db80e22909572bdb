using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;

namespace KafkaPerf.Running;

/// <summary>
/// Where a session's broker comes from: one KafkaPerf starts (the embedded broker, a container), an existing cluster, or a
/// connection already made (a test fixture's broker, a worker's cluster). The adapters implement it
/// (<c>KafkaPerf.Adapters.Broker.BrokerSource</c>); <see cref="BrokerSources.Connected"/> wraps a connection.
/// </summary>
public interface IBrokerSource
{
    /// <summary>How many brokers the cluster will have, when known before it starts or is asked (the embedded cluster's
    /// size); <see langword="null"/> otherwise. A plan that needs more is refused before anything starts.</summary>
    int? KnownBrokers { get; }

    /// <summary>Whether the cluster will have shaping proxies in front of its nodes (the embedded broker or cluster started
    /// for a plan with <c>--network</c>); a plan with a network on any other source is refused before anything starts.</summary>
    bool ShapesNetwork => false;

    /// <summary>Why a fault (<c>--fault</c>) cannot run on this source's cluster, in one line, asked before anything
    /// starts; <see langword="null"/> when it can (or when only the started cluster can say).</summary>
    /// <param name="fault">The fault.</param>
    /// <returns>The refusal, or <see langword="null"/>.</returns>
    string? RefuseFault(FaultSpec fault) => null;

    /// <summary>Why this source's cluster cannot hold the plan (the embedded cluster's disk too small for its largest
    /// run), in one line, asked before anything starts; <see langword="null"/> when it can.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>The refusal, or <see langword="null"/>.</returns>
    string? RefusePlan(BenchmarkPlan plan) => null;

    /// <summary>Starts the broker, or checks that the cluster answers.</summary>
    /// <param name="log">Progress lines (<c>kafkaperf: …</c>), or <see langword="null"/> for none.</param>
    /// <param name="cancellationToken">Stops the start; nothing is left behind.</param>
    /// <returns>The broker, which the caller disposes (stopping what was started).</returns>
    Task<IBrokerLease> ConnectAsync(TextWriter? log, CancellationToken cancellationToken);
}

