using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>Creates the <c>confluent</c> client (Confluent.Kafka over librdkafka), or one of its API-style variants.</summary>
/// <param name="options">Timeouts; defaults when omitted.</param>
/// <param name="style">How the variant calls Confluent.Kafka; <see cref="ConfluentStyle.Fastest"/> is <c>confluent</c>.</param>
public sealed class ConfluentClientFactory(ConfluentClientOptions? options = null, ConfluentStyle style = ConfluentStyle.Fastest) : IBenchClientFactory
{
    /// <summary>The registration name of the fastest style.</summary>
    public const string ClientName = "confluent";

    private readonly ConfluentClientOptions _options = options ?? new ConfluentClientOptions();

    /// <summary>Every Confluent.Kafka variant, <c>confluent</c> first.</summary>
    /// <param name="options">Timeouts; defaults when omitted.</param>
    /// <returns>One factory per style.</returns>
    public static IReadOnlyList<ConfluentClientFactory> AllStyles(ConfluentClientOptions? options = null) =>
        [.. Enum.GetValues<ConfluentStyle>().Select(s => new ConfluentClientFactory(options, s))];

    /// <summary>The variant's style.</summary>
    public ConfluentStyle Style => style;

    /// <inheritdoc />
    public string Name => (style switch
    {
        ConfluentStyle.Awaited => "confluent-sync",
        ConfluentStyle.AsyncWindow => "confluent-async",
        ConfluentStyle.RecordConsume => "confluent-records",
        _ => ClientName,
    }) + _options.NameSuffix;

    /// <inheritdoc />
    public string Description => style switch
    {
        ConfluentStyle.Awaited => "confluent, but each send is `await ProduceAsync` with one record in flight (the synchronous style); consumes as confluent",
        ConfluentStyle.AsyncWindow => $"confluent, but sends with ProduceAsync, up to -X confluent-async:window=N tasks in flight (default {ConfluentAsyncProducer.DefaultWindow}), each awaited as it completes; consumes as confluent",
        ConfluentStyle.RecordConsume => "confluent, but consumes with the usual Consume(timeout) loop, a ConsumeResult and a byte[] value per record; produces as confluent",
        _ => $"Confluent.Kafka {ConfluentNativeLibrary.ManagedVersion} over librdkafka (P/Invoke): delivery-handler Produce, values read in place",
    };

    /// <inheritdoc />
    public bool RequiresBroker => true;

    /// <inheritdoc />
    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency | ClientCapabilities.Workloads | ClientCapabilities.Transactions | ClientCapabilities.ShareGroups | ClientCapabilities.GroupMembership;

    /// <inheritdoc />
    public string? DescribeLibrary()
    {
        try
        {
            return $"Confluent.Kafka {ConfluentNativeLibrary.ManagedVersion}, {ConfluentNativeLibrary.EnsureLoaded().Describe()}";
        }
        catch (PrerequisiteException)
        {
            return null;
        }
    }

    /// <inheritdoc />
    public string? CheckAvailability()
    {
        try
        {
            ConfluentNativeLibrary.EnsureLoaded();
            return null;
        }
        catch (PrerequisiteException ex)
        {
            return ex.Message;
        }
    }

    /// <inheritdoc />
    public IReadOnlyList<string> SettingsWarnings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        // With --keys, KafkaPerf sets murmur2_random: the Java client's hash, so a key lands on the same partition in both.
        return settings.Keys is not null && settings.Overrides.TryGetValue("partitioner", out var partitioner)
            && !partitioner.Equals("murmur2_random", StringComparison.OrdinalIgnoreCase)
            ? [$"-X {Name}:partitioner={partitioner} with --keys: librdkafka then places keys by another hash than the Java client's murmur2, so the same key lands on another partition in each client (docs/workloads.md)."]
            : [];
    }

    /// <inheritdoc />
    public string? CheckSettings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var binding = ConfluentNativeLibrary.EnsureLoaded();
        const string Placeholder = "127.0.0.1:9092";
        bool styled = style != ConfluentStyle.Fastest;
        if (style == ConfluentStyle.AsyncWindow)
        {
            try
            {
                ConfluentAsyncProducer.Window(settings, Name, ConfluentAsyncProducer.DefaultWindow);
            }
            catch (ArgumentException ex)
            {
                return ex.Message;
            }
        }
        else if (styled && settings.Overrides.ContainsKey(ConfluentAsyncProducer.WindowKey))
        {
            return $"-X {Name}:{ConfluentAsyncProducer.WindowKey}= is not a setting of {Name}: only confluent-async has a window of sends in flight.";
        }
        return LibrdkafkaConfigDump.Check(binding, ConfluentSettings.Producer(Placeholder, settings, styled))
            ?? LibrdkafkaConfigDump.Check(binding, ConfluentSettings.Consumer(Placeholder, "check", settings, styled));
    }

    /// <inheritdoc />
    /// <exception cref="PrerequisiteException">librdkafka is missing, or no broker answered within the connect timeout.</exception>
    public IBenchClient Create(KafkaEndpoint endpoint) =>
        new ConfluentClient(endpoint, ConfluentNativeLibrary.EnsureLoaded(), _options, style, Name);

    /// <summary>Checks that a Kafka broker answers a metadata request, within a bounded time.</summary>
    /// <param name="bootstrap">Bootstrap servers, <c>host:port,…</c>.</param>
    /// <param name="timeout">How long to try.</param>
    /// <returns>The number of brokers in the cluster.</returns>
    /// <exception cref="PrerequisiteException">librdkafka is missing, or no broker answered in time.</exception>
    /// <param name="security">How to reach the listener; plain TCP when <see langword="null"/>.</param>
    public static int ProbeBroker(string bootstrap, TimeSpan timeout, KafkaSecurity? security = null)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        return ConfluentClient.Probe(bootstrap, security ?? KafkaSecurity.Plaintext, timeout);
    }

    /// <summary>Asks a cluster for its metadata once, off the caller's thread.</summary>
    /// <param name="bootstrap">The cluster.</param>
    /// <param name="timeout">How long to wait for an answer.</param>
    /// <param name="cancellationToken">Stops waiting (the request itself ends at its timeout).</param>
    /// <returns><see langword="null"/> when it answered; otherwise librdkafka's reason.</returns>
    /// <param name="security">How to reach the listener; plain TCP when <see langword="null"/>.</param>
    public static async Task<string?> CheckReachableAsync(string bootstrap, TimeSpan timeout, CancellationToken cancellationToken, KafkaSecurity? security = null)
    {
        try
        {
            await Task.Run(() => ProbeBroker(bootstrap, timeout, security), CancellationToken.None).WaitAsync(cancellationToken).ConfigureAwait(false);
            return null;
        }
        catch (PrerequisiteException ex) when (ex.InnerException is KafkaException kafka)
        {
            return kafka.Error.Reason;
        }
    }
}
