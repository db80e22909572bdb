using KafkaPerf.Adapters.Java;
using KafkaPerf.Clients;
using Microsoft.Extensions.DependencyInjection;

namespace KafkaPerf.Adapters.References;

/// <summary>Registers the reference tools.</summary>
public static class ReferenceServiceCollectionExtensions
{
    /// <summary>Registers <c>kcat</c> (librdkafka's own CLI) and <c>kafka-tools</c> (Kafka's ProducerPerformance and
    /// ConsumerPerformance) by name, for plans' references.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="javaOptions">Heap and jars for kafka-tools; the defaults when omitted.</param>
    /// <returns>The same collection.</returns>
    public static IServiceCollection AddReferenceTools(this IServiceCollection services, JavaClientOptions? javaOptions = null) =>
        services.AddBenchClient(new KcatReferenceFactory()).AddBenchClient(new KafkaToolsReferenceFactory(javaOptions));
}
