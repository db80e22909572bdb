namespace KafkaPerf.Clients;

/// <summary>
/// Supplies a plugin's clients when they are not one per factory type: several configured factories of one type (the
/// calling styles of one library, say). A plugin assembly that holds a provider contributes the factories of its
/// providers; one that holds none contributes one client per public <see cref="IBenchClientFactory"/> type with a public
/// parameterless constructor.
/// </summary>
public interface IBenchClientFactoryProvider
{
    /// <summary>The factories, each a client by its <see cref="IBenchClientFactory.Name"/>.</summary>
    IEnumerable<IBenchClientFactory> Factories { get; }
}
