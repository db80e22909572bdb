using KafkaPerf.Clients;
using Microsoft.Extensions.DependencyInjection;

namespace KafkaPerf.Adapters.Java;

/// <summary>Registers the Java clients.</summary>
public static class JavaServiceCollectionExtensions
{
    /// <summary>Registers <c>java</c>, <c>java-batched</c> and <c>java-records</c> (the Apache Kafka Java client in this process's JVM) by name.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="options">JVM and batching options, shared by both; defaults when omitted.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddJavaClients(this IServiceCollection services, JavaClientOptions? options = null) =>
        services.AddBenchClient(new JavaClientFactory(JavaStyle.PerRecord, options)).AddBenchClient(new JavaClientFactory(JavaStyle.Batched, options))
            .AddBenchClient(new JavaClientFactory(JavaStyle.Records, options));
}
