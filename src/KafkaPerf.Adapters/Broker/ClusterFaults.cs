using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// Faults on a cluster KafkaPerf did not start (or a one-node container): only <c>exec</c>, the user's own command; the
/// partition's leader is read with librdkafka's metadata, and healing waits until the cluster lists every broker again.
/// </summary>
internal sealed class ClusterFaults(string bootstrapServers, KafkaSecurity security, string what) : IFaultInjector, IDisposable
{
    private static readonly TimeSpan MetadataTimeout = TimeSpan.FromSeconds(2);
    private int? _brokers;
    private readonly Lazy<IAdminClient> _admin = new(() => new AdminClientBuilder(ConfluentSettings.Admin(bootstrapServers, security))
        .SetLogHandler((_, _) => { }).Build());

    internal const string ContainerName = "the Kafka container (one node)";

    internal const string BootstrapName = "a cluster given with --bootstrap";

    public string? Refuse(FaultSpec fault) => RefuseFor(what, fault);

    internal static string? RefuseFor(string what, FaultSpec fault) => fault.Kind == FaultKind.Exec ? null
        : $"--fault {fault} needs a cluster KafkaPerf started, and {what} is not one: run it on the embedded cluster (--brokers 3), or give your own command as exec@{fault.At.TotalSeconds:0.###}s:COMMAND (e.g. kubectl delete pod kafka-1).";

    public Task<FaultAction> FireAsync(FaultSpec fault, string topic, Action fired, CancellationToken cancellationToken) =>
        fault.Kind == FaultKind.Exec ? FaultCommand.RunAsync(fault, fired, cancellationToken) : throw new InvalidOperationException(Refuse(fault));

    public Task EndAsync(FaultAction action, CancellationToken cancellationToken) => Task.CompletedTask;

    public Task<PartitionState?> PartitionAsync(string topic, CancellationToken cancellationToken) => Task.Run(() =>
    {
        var metadata = _admin.Value.GetMetadata(topic, MetadataTimeout);
        var partition = metadata.Topics.FirstOrDefault(t => t.Topic == topic)?.Partitions.FirstOrDefault(p => p.PartitionId == 0);
        return partition is null ? null : new PartitionState(partition.Leader, [.. partition.InSyncReplicas.Order()]);
    }, cancellationToken);

    /// <remarks>A cluster KafkaPerf did not start is not repaired, and its other topics are not its business: it waits
    /// until the cluster lists as many brokers as when the plan connected (what an exec took down is back).</remarks>
    public async Task<string?> HealAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + timeout;
        string? damage = null;
        while (DateTime.UtcNow < deadline)
        {
            try
            {
                int listed = (await Task.Run(() => _admin.Value.GetMetadata(MetadataTimeout), cancellationToken).ConfigureAwait(false)).Brokers.Count;
                if (_brokers is not { } expected) _brokers = listed;
                else if (listed < expected) damage = $"the cluster lists {listed} of its {expected} brokers";
                else return null;
                if (damage is null) return null;
            }
            catch (KafkaException ex)
            {
                damage = ex.Message;
            }
            await Task.Delay(500, cancellationToken).ConfigureAwait(false);
        }
        return damage;
    }

    public void Dispose()
    {
        if (_admin.IsValueCreated) _admin.Value.Dispose();
    }
}
