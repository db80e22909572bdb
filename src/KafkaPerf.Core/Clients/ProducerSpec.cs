namespace KafkaPerf.Clients;

/// <summary>What a producer is created for.</summary>
/// <param name="Topic">The topic every record goes to.</param>
/// <param name="Settings">Common knobs and this client's overrides.</param>
public sealed record ProducerSpec(string Topic, ClientSettings Settings);
