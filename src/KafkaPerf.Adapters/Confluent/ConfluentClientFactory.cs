using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>Creates the <c>confluent</c> client (Confluent.Kafka over librdkafka).</summary>
/// <param name="options">Timeouts; defaults when omitted.</param>
public sealed class ConfluentClientFactory(ConfluentClientOptions? options = null) : IBenchClientFactory
{
    /// <summary>The registration name.</summary>
    public const string ClientName = "confluent";

    private readonly ConfluentClientOptions _options = options ?? new ConfluentClientOptions();

    /// <inheritdoc />
    public string Name => ClientName;

    /// <inheritdoc />
    public string Description => $"Confluent.Kafka {ConfluentNativeLibrary.ManagedVersion} over librdkafka (P/Invoke)";

    /// <inheritdoc />
    public bool RequiresBroker => true;

    /// <inheritdoc />
    public ClientCapabilities Capabilities => ClientCapabilities.DeliveryLatency;

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
    public string? CheckSettings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var binding = ConfluentNativeLibrary.EnsureLoaded();
        const string Placeholder = "127.0.0.1:9092";
        return LibrdkafkaConfigDump.Check(binding, ConfluentSettings.Producer(Placeholder, settings))
            ?? LibrdkafkaConfigDump.Check(binding, ConfluentSettings.Consumer(Placeholder, "check", settings));
    }

    /// <inheritdoc />
    /// <exception cref="PrerequisiteException">librdkafka is missing, or no broker answered within the connect timeout.</exception>
    public IBenchClient Create(ClientConnection connection) =>
        new ConfluentClient(connection, ConfluentNativeLibrary.EnsureLoaded(), _options);

    /// <summary>Checks that a Kafka broker answers a metadata request, within a bounded time.</summary>
    /// <param name="bootstrap">Bootstrap servers, <c>host:port,…</c>.</param>
    /// <param name="timeout">How long to try.</param>
    /// <returns>The number of brokers in the cluster.</returns>
    /// <exception cref="PrerequisiteException">librdkafka is missing, or no broker answered in time.</exception>
    public static int ProbeBroker(string bootstrap, TimeSpan timeout)
    {
        ConfluentNativeLibrary.EnsureLoaded();
        return ConfluentClient.Probe(bootstrap, timeout);
    }

    /// <summary>Asks a cluster for its metadata once, off the caller's thread.</summary>
    /// <param name="bootstrap">The cluster.</param>
    /// <param name="timeout">How long to wait for an answer.</param>
    /// <param name="cancellationToken">Stops waiting (the request itself ends at its timeout).</param>
    /// <returns><see langword="null"/> when it answered; otherwise librdkafka's reason.</returns>
    public static async Task<string?> CheckReachableAsync(string bootstrap, TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            await Task.Run(() => ProbeBroker(bootstrap, timeout), CancellationToken.None).WaitAsync(cancellationToken).ConfigureAwait(false);
            return null;
        }
        catch (PrerequisiteException ex) when (ex.InnerException is KafkaException kafka)
        {
            return kafka.Error.Reason;
        }
    }
}
