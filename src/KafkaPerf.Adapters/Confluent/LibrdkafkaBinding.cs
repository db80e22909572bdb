namespace KafkaPerf.Adapters.Confluent;

/// <summary>The librdkafka that Confluent.Kafka runs on in this process.</summary>
/// <param name="Version">Its version, as it reports it (e.g. <c>2.16.0</c>).</param>
/// <param name="Path">The file that was loaded.</param>
/// <param name="Origin">Where it came from.</param>
/// <param name="Handle">The native library handle.</param>
public sealed record LibrdkafkaBinding(string Version, string Path, LibrdkafkaOrigin Origin, IntPtr Handle)
{
    /// <summary>librdkafka's <c>builtin.features</c> (codecs, SASL mechanisms, TLS, …), as the library reports them.</summary>
    public string Features { get; init; } = string.Empty;

    /// <summary>Whether this is the version Confluent.Kafka is built and tested against.</summary>
    public bool IsExpectedVersion => Version == ConfluentNativeLibrary.ExpectedVersion;

    /// <summary>One line for results: version, origin and file.</summary>
    public string Describe() => $"librdkafka {Version} ({OriginText}: {Path})";

    /// <summary>What results record about the library: its version and origin, the exact file, its builtin features.</summary>
    public IEnumerable<KeyValuePair<string, string>> DetailEntries()
    {
        yield return new("librdkafka", $"{Version} ({OriginText})");
        yield return new("librdkafka.file", Path);
        yield return new("librdkafka.features", Features);
    }

    /// <summary>A warning for the result when the version differs from the one Confluent.Kafka expects.</summary>
    public string? Warning => IsExpectedVersion ? null
        : $"Confluent.Kafka {ConfluentNativeLibrary.ManagedVersion} is built for librdkafka {ConfluentNativeLibrary.ExpectedVersion}, but librdkafka {Version} "
          + $"({OriginText}, {Path}) ran: users of the NuGet package get {ConfluentNativeLibrary.ExpectedVersion}, so these figures may differ from theirs. "
          + $"Unset {ConfluentNativeLibrary.PathVariable} to run on the package's.";

    private string OriginText => Name(Origin);

    /// <summary>How an origin is named in results and messages.</summary>
    /// <param name="origin">The origin.</param>
    /// <returns>Its name.</returns>
    public static string Name(LibrdkafkaOrigin origin) => origin switch
    {
        LibrdkafkaOrigin.Variable => ConfluentNativeLibrary.PathVariable,
        LibrdkafkaOrigin.Redist => "librdkafka.redist",
        _ => "found by the loader",
    };
}
