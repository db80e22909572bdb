using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;

namespace KafkaPerf.Core.Tests.Running;

/// <summary>The in-memory client standing for a client of a Kafka cluster, each event on a topic logged as it happens:
/// "create", "producer", "consumer {group}", "delete" when a deletion starts and "deleted" when it ends.</summary>
internal sealed class LoggedClusterFactory(Action<string, string> log, InMemoryClientOptions? options = null, TimeSpan deleteDelay = default)
    : IBenchClientFactory
{
    private readonly InMemoryClientFactory _inner = new(options ?? new InMemoryClientOptions { Name = "cluster" });

    public string Name => "cluster";

    public string Description => "a client of a cluster";

    public bool RequiresBroker => true;

    public IBenchClient Create(KafkaEndpoint endpoint) => new Client(_inner.Create(endpoint), log, deleteDelay);

    private sealed class Client(IBenchClient inner, Action<string, string> log, TimeSpan deleteDelay) : IBenchClient
    {
        public string Name => "cluster";

        public string LibraryVersion => inner.LibraryVersion;

        public ClientCapabilities Capabilities => inner.Capabilities;

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
        {
            log(spec.Topic, "producer");
            return inner.CreateProducer(spec, sink);
        }

        public IBenchConsumer CreateConsumer(ConsumerSpec spec)
        {
            log(spec.Topic, "consumer " + spec.GroupId);
            return inner.CreateConsumer(spec);
        }

        public async ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
        {
            await inner.CreateTopicAsync(topic, cancellationToken);
            log(topic.Name, "create");
        }

        public async ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
        {
            log(topic, "delete");
            if (deleteDelay > TimeSpan.Zero) await Task.Delay(deleteDelay, cancellationToken);
            await inner.DeleteTopicAsync(topic, cancellationToken);
            log(topic, "deleted");
        }

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }
}
