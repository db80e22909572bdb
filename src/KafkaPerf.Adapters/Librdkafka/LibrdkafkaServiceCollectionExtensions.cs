using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using Microsoft.Extensions.DependencyInjection;

namespace KafkaPerf.Adapters.Librdkafka;

/// <summary>Registers the <c>librdkafka</c> reference client.</summary>
public static class LibrdkafkaServiceCollectionExtensions
{
    /// <summary>Registers <c>librdkafka</c> (librdkafka's C API from .NET, without Confluent.Kafka's producer and consumer)
    /// by name: a reference for <c>confluent</c>, named in <c>--clients</c>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="options">Timeouts; defaults when omitted.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddLibrdkafkaClient(this IServiceCollection services, ConfluentClientOptions? options = null) =>
        services.AddBenchClient(new LibrdkafkaClientFactory(options));
}
