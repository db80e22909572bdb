namespace KafkaPerf.Adapters.Confluent;

/// <summary>The librdkafka that Confluent.Kafka runs on in this process.</summary>
/// <param name="Version">Its version, as it reports it (e.g. <c>2.15.1</c>).</param>
/// <param name="Path">The file that was loaded.</param>
/// <param name="Origin">Where it came from.</param>
/// <param name="Handle">The native library handle.</param>
public sealed record LibrdkafkaBinding(string Version, string Path, LibrdkafkaOrigin Origin, IntPtr Handle)
{
    /// <summary>Whether this is the version Confluent.Kafka is built and tested against.</summary>
    public bool IsExpectedVersion => Version == ConfluentNativeLibrary.ExpectedVersion;

    /// <summary>One line for results: version, origin and file.</summary>
    public string Describe() => $"librdkafka {Version} ({OriginText}: {Path})";

    /// <summary>A warning for the result when the version differs from the one Confluent.Kafka expects.</summary>
    public string? Warning => IsExpectedVersion ? null
        : $"Confluent.Kafka {ConfluentNativeLibrary.ManagedVersion} is built for librdkafka {ConfluentNativeLibrary.ExpectedVersion}, but librdkafka {Version} "
          + $"({OriginText}, {Path}) ran: users of the NuGet package get {ConfluentNativeLibrary.ExpectedVersion}, so these figures may differ from theirs. "
          + "Run eng/build-librdkafka.sh or set KAFKAPERF_LIBRDKAFKA.";

    private string OriginText => Name(Origin);

    /// <summary>How an origin is named in results and messages.</summary>
    /// <param name="origin">The origin.</param>
    /// <returns>Its name.</returns>
    public static string Name(LibrdkafkaOrigin origin) => origin switch
    {
        LibrdkafkaOrigin.Variable => ConfluentNativeLibrary.PathVariable,
        LibrdkafkaOrigin.ProjectBuild => "KafkaPerf's build",
        LibrdkafkaOrigin.Redist => "librdkafka.redist",
        _ => "operating system",
    };
}
