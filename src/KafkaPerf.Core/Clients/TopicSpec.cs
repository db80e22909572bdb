namespace KafkaPerf.Clients;

/// <summary>A topic to create for one run.</summary>
/// <param name="Name">Topic name.</param>
/// <param name="Partitions">Partition count.</param>
/// <param name="ReplicationFactor">Replication factor.</param>
public sealed record TopicSpec(string Name, int Partitions = 1, short ReplicationFactor = 1);
