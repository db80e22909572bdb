namespace KafkaPerf.Clients;

/// <summary>A topic to create for one run.</summary>
/// <param name="Name">Topic name.</param>
/// <param name="Partitions">Partition count.</param>
/// <param name="ReplicationFactor">Replication factor.</param>
/// <param name="MinInSyncReplicas">The topic's <c>min.insync.replicas</c>; the broker's default when <see langword="null"/>.</param>
public sealed record TopicSpec(string Name, int Partitions = 1, short ReplicationFactor = 1, int? MinInSyncReplicas = null)
{
    /// <summary>The topic's own settings (<c>min.insync.replicas</c> when set), as the admin APIs take them.</summary>
    public IReadOnlyDictionary<string, string> Configs => MinInSyncReplicas is { } min
        ? new Dictionary<string, string> { ["min.insync.replicas"] = min.ToString(System.Globalization.CultureInfo.InvariantCulture) }
        : new Dictionary<string, string>();
}
