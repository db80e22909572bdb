namespace KafkaPerf.Adapters.Confluent;

/// <summary>Where the librdkafka in use came from, in the order they are tried.</summary>
public enum LibrdkafkaOrigin
{
    /// <summary>The file named by <c>KAFKAPERF_LIBRDKAFKA</c>.</summary>
    Variable,

    /// <summary>The project's own build of the version Confluent.Kafka is built for (<c>eng/build-librdkafka.sh</c>).</summary>
    ProjectBuild,

    /// <summary>The native asset of the <c>librdkafka.redist</c> package, where a package source has it.</summary>
    Redist,

    /// <summary>The operating system's library (e.g. Debian's <c>librdkafka1</c>), usually older than expected.</summary>
    OperatingSystem,
}
