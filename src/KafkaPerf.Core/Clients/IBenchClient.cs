namespace KafkaPerf.Clients;

/// <summary>
/// One Kafka client library as the benchmark sees it: it creates producers, consumers and topics.
/// Adapters only adapt: timing, payloads, keys and statistics belong to the scenarios.
/// </summary>
/// <remarks>Created once per plan, so start-up cost (a JVM, a connection) stays outside every timed section.</remarks>
public interface IBenchClient : IAsyncDisposable
{
    /// <summary>The registration name, e.g. <c>confluent</c>.</summary>
    string Name { get; }

    /// <summary>The version of the client library under test.</summary>
    string LibraryVersion { get; }

    /// <summary>What this client can do beyond the minimum.</summary>
    ClientCapabilities Capabilities { get; }

    /// <summary>Facts about what the client runs on, recorded with every result (e.g. the native library's version and file).</summary>
    IReadOnlyDictionary<string, string> Details => NoDetails;

    /// <summary>Caveats that belong in the result (e.g. a native library other than the one the package expects).</summary>
    IReadOnlyList<string> Warnings => [];

    /// <summary>Counters the client keeps of its own (e.g. <c>jni.calls</c>), read at the start and the end of every timed
    /// section; the run records their growth per message. Empty for most clients.</summary>
    /// <returns>Name and current value of each counter.</returns>
    IReadOnlyList<KeyValuePair<string, long>> ReadCounters() => [];

    private static readonly IReadOnlyDictionary<string, string> NoDetails = new Dictionary<string, string>();

    /// <summary>Creates a producer whose delivery reports go to <paramref name="sink"/>.</summary>
    /// <param name="spec">Topic and settings.</param>
    /// <param name="sink">Receives delivery reports.</param>
    /// <returns>A producer that the caller disposes.</returns>
    IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink);

    /// <summary>Creates a consumer.</summary>
    /// <param name="spec">Topic, group and settings.</param>
    /// <returns>A consumer that the caller disposes.</returns>
    IBenchConsumer CreateConsumer(ConsumerSpec spec);

    /// <summary>Creates a topic and returns once it can be used.</summary>
    /// <remarks>The runner creates a cell's topics with calls at the same time; a broker reads one request per connection
    /// at a time, so a client that sends the topics asked for meanwhile in one request saves a controller round trip per
    /// topic (the built-in clients do).</remarks>
    /// <param name="topic">What to create.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>A task that completes when the topic exists.</returns>
    ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken);

    /// <summary>Deletes a topic.</summary>
    /// <param name="topic">Its name.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>A task that completes when the deletion was accepted.</returns>
    ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken);
}
