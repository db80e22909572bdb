using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Running;

/// <summary>A broker source's refusals of faults before its cluster starts; nothing else of a cluster.</summary>
internal sealed class FaultPreview(IBrokerSource source) : IFaultInjector
{
    public string? Refuse(FaultSpec fault) => source.RefuseFault(fault);

    public Task<FaultAction> FireAsync(FaultSpec fault, string topic, Action fired, CancellationToken cancellationToken) => throw NotStarted();

    public Task EndAsync(FaultAction action, CancellationToken cancellationToken) => throw NotStarted();

    public Task<PartitionState?> PartitionAsync(string topic, CancellationToken cancellationToken) => throw NotStarted();

    public Task<string?> HealAsync(TimeSpan timeout, CancellationToken cancellationToken) => throw NotStarted();

    private static InvalidOperationException NotStarted() => new("The cluster has not started yet.");
}
