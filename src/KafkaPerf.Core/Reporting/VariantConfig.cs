namespace KafkaPerf.Reporting;

/// <summary>The configuration a client really ran one settings variant with.</summary>
/// <param name="ProducerConfig">Effective producer configuration of the variant's first run with a producer.</param>
/// <param name="ConsumerConfig">Effective consumer configuration of the variant's first run with a consumer.</param>
public sealed record VariantConfig(IReadOnlyDictionary<string, string>? ProducerConfig, IReadOnlyDictionary<string, string>? ConsumerConfig);
