using KafkaPerf.Clients;
using Microsoft.Extensions.DependencyInjection;

namespace KafkaPerf.Adapters.Java;

/// <summary>Registers the Java clients.</summary>
public static class JavaServiceCollectionExtensions
{
    /// <summary>Registers <c>java</c> and <c>java-batched</c> (the Apache Kafka Java client in this process's JVM) by name.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="options">JVM and batching options, shared by both; defaults when omitted.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddJavaClients(this IServiceCollection services, JavaClientOptions? options = null) =>
        services.AddBenchClient(new JavaClientFactory(batched: false, options)).AddBenchClient(new JavaClientFactory(batched: true, options));
}
