using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace KafkaPerf.Clients;

/// <summary>Registers clients by name: one registration per client.</summary>
public static class ClientServiceCollectionExtensions
{
    /// <summary>Registers a client factory and the <see cref="ClientRegistry"/> that finds it by name.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="factory">The factory.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddBenchClient(this IServiceCollection services, IBenchClientFactory factory)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(factory);
        services.AddSingleton(factory);
        services.TryAddSingleton(provider => new ClientRegistry(provider.GetServices<IBenchClientFactory>()));
        return services;
    }
}
