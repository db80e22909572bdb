using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;

namespace KafkaPerf.Core.Tests.Running;

/// <summary>The in-memory client standing for a client of a Kafka cluster, each event on a topic logged as it happens:
/// "create", "producer", "consumer {group}", "delete" when a deletion starts and "deleted" when it ends. Like a Kafka
/// topic, a topic can be read again from its start by a consumer of another group (the in-memory queue is read once: the
/// records written to it are written again, in their order, to a queue of that consumer's own).</summary>
/// <param name="refuses">Groups whose consumer is refused (its creation throws), to fail the run that reads with it.</param>
internal sealed class LoggedClusterFactory(Action<string, string> log, InMemoryClientOptions? options = null, TimeSpan deleteDelay = default,
    Func<string, bool>? refuses = null)
    : IBenchClientFactory
{
    private readonly InMemoryClientFactory _inner = new(options ?? new InMemoryClientOptions { Name = "cluster" });

    public string Name => "cluster";

    public string Description => "a client of a cluster";

    public bool RequiresBroker => true;

    public IBenchClient Create(KafkaEndpoint endpoint) => new Client(_inner.Create(endpoint), log, deleteDelay, refuses);

    private sealed class Client(IBenchClient inner, Action<string, string> log, TimeSpan deleteDelay, Func<string, bool>? refuses) : IBenchClient
    {
        public string Name => "cluster";

        public string LibraryVersion => inner.LibraryVersion;

        public ClientCapabilities Capabilities => inner.Capabilities;

        // By topic: its spec and every record written to it, in order; and the groups that read it.
        private readonly Dictionary<string, (TopicSpec Spec, List<(long Key, byte[] Value)> Written, List<string> Readers)> _topics =
            new(StringComparer.Ordinal);

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
        {
            log(spec.Topic, "producer");
            var producer = inner.CreateProducer(spec, sink);
            lock (_topics) return _topics.TryGetValue(spec.Topic, out var topic) ? new Recording(producer, topic.Written) : producer;
        }

        public IBenchConsumer CreateConsumer(ConsumerSpec spec)
        {
            log(spec.Topic, "consumer " + spec.GroupId);
            if (refuses?.Invoke(spec.GroupId) == true) throw new InvalidOperationException($"group {spec.GroupId} refused");
            (TopicSpec Spec, List<(long Key, byte[] Value)> Written, List<string> Readers) topic;
            lock (_topics)
            {
                if (!_topics.TryGetValue(spec.Topic, out topic)) return inner.CreateConsumer(spec);
                topic.Readers.Add(spec.GroupId);
                if (topic.Readers.Count == 1) return inner.CreateConsumer(spec);
            }
            // Read again: the same records in a queue of this group's own.
            string copy = spec.Topic + "~" + spec.GroupId;
            inner.CreateTopicAsync(topic.Spec with { Name = copy }, CancellationToken.None).AsTask().GetAwaiter().GetResult();
            using (var producer = inner.CreateProducer(new ProducerSpec(copy, spec.Settings), new IgnoredDeliveries()))
            {
                foreach (var (key, value) in topic.Written) producer.Send(key, value);
                producer.Flush(CancellationToken.None);
            }
            return inner.CreateConsumer(spec with { Topic = copy });
        }

        public async ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
        {
            await inner.CreateTopicAsync(topic, cancellationToken);
            lock (_topics) _topics[topic.Name] = (topic, [], []);
            log(topic.Name, "create");
        }

        public async ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
        {
            log(topic, "delete");
            if (deleteDelay > TimeSpan.Zero) await Task.Delay(deleteDelay, cancellationToken);
            await inner.DeleteTopicAsync(topic, cancellationToken);
            List<string> readers;
            lock (_topics) readers = _topics.Remove(topic, out var deleted) ? deleted.Readers : [];
            foreach (var group in readers.Skip(1)) await inner.DeleteTopicAsync(topic + "~" + group, cancellationToken);
            log(topic, "deleted");
        }

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }

    /// <summary>A producer that keeps a copy of every record it sends, for the topic to be read again.</summary>
    private sealed class Recording(IBenchProducer inner, List<(long Key, byte[] Value)> written) : IBenchProducer
    {
        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public void Send(long key, ReadOnlyMemory<byte> value)
        {
            lock (written) written.Add((key, value.ToArray()));
            inner.Send(key, value);
        }

        public void SendBuffered() => inner.SendBuffered();

        public void BeginTransaction() => inner.BeginTransaction();

        public void CommitTransaction(CancellationToken cancellationToken) => inner.CommitTransaction(cancellationToken);

        public void AbortTransaction(CancellationToken cancellationToken) => inner.AbortTransaction(cancellationToken);

        public void Flush(CancellationToken cancellationToken) => inner.Flush(cancellationToken);

        public void Dispose() => inner.Dispose();
    }

    private sealed class IgnoredDeliveries : IDeliverySink
    {
        public void OnDelivered(long key)
        {
        }

        public void OnDeliveryFailed(long key, string reason)
        {
        }
    }
}
