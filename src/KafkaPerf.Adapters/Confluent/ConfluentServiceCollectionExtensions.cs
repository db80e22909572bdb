using KafkaPerf.Clients;
using Microsoft.Extensions.DependencyInjection;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>Registers the <c>confluent</c> client.</summary>
public static class ConfluentServiceCollectionExtensions
{
    /// <summary>Registers <c>confluent</c> (Confluent.Kafka over librdkafka) and its API-style variants
    /// (<c>confluent-sync</c>, <c>confluent-async</c>, <c>confluent-records</c>) by name.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="options">Timeouts; defaults when omitted.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddConfluentClient(this IServiceCollection services, ConfluentClientOptions? options = null)
    {
        foreach (var factory in ConfluentClientFactory.AllStyles(options)) services.AddBenchClient(factory);
        return services;
    }
}
