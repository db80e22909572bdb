namespace KafkaPerf.Adapters.Confluent;

/// <summary>Where the librdkafka in use came from.</summary>
public enum LibrdkafkaOrigin
{
    /// <summary>The file named by <c>KAFKAPERF_LIBRDKAFKA</c>.</summary>
    Variable,

    /// <summary>The native file of the <c>librdkafka.redist</c> package, which Confluent.Kafka's own loader chose: what
    /// its users run.</summary>
    Redist,

    /// <summary>A library the loader found elsewhere (e.g. the operating system's), when the package's could not load.</summary>
    OperatingSystem,
}
