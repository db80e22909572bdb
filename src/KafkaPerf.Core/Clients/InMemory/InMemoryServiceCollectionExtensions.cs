using Microsoft.Extensions.DependencyInjection;

namespace KafkaPerf.Clients.InMemory;

/// <summary>Registers the <c>inmemory</c> client beside the others (<see cref="ClientServiceCollectionExtensions"/>).</summary>
public static class InMemoryServiceCollectionExtensions
{
    /// <summary>Registers the <c>inmemory</c> client: no Kafka, it measures the harness itself.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="options">Its options; defaults when omitted.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddInMemoryClient(this IServiceCollection services, InMemoryClientOptions? options = null) =>
        services.AddBenchClient(new InMemoryClientFactory(options ?? new InMemoryClientOptions()));
}
