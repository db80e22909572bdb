using System.Collections.Concurrent;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;

namespace KafkaPerf.Core.Tests.Clients;

/// <summary>Wraps a client to watch its topic lifecycle and to inject consumer and topic-creation faults.</summary>
internal sealed class TestClientFactory(InMemoryClientOptions options, long dropKey = -1, long duplicateKey = -1) : IBenchClientFactory
{
    /// <summary>Thrown instead of creating the topic (e.g. "it exists already").</summary>
    public Exception? FailBeforeCreating { get; init; }

    /// <summary>Thrown after the topic was created (e.g. the wait for its metadata timed out).</summary>
    public Exception? FailAfterCreating { get; init; }

    public ConcurrentQueue<string> Created { get; } = new();

    public ConcurrentQueue<string> Deleted { get; } = new();

    public string Name => options.Name;

    public string Description => "test";

    public bool RequiresBroker => false;

    public IBenchClient Create(ClientConnection connection) => new Client(new InMemoryClient(options), this, dropKey, duplicateKey);

    private sealed class Client(InMemoryClient inner, TestClientFactory owner, long dropKey, long duplicateKey) : IBenchClient
    {
        public string Name => inner.Name;

        public string LibraryVersion => inner.LibraryVersion;

        public ClientCapabilities Capabilities => inner.Capabilities;

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink) => inner.CreateProducer(spec, sink);

        public IBenchConsumer CreateConsumer(ConsumerSpec spec) => new FaultyConsumer(inner.CreateConsumer(spec), dropKey, duplicateKey);

        public async ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
        {
            if (owner.FailBeforeCreating is { } before) throw before;
            await inner.CreateTopicAsync(topic, cancellationToken);
            owner.Created.Enqueue(topic.Name);
            if (owner.FailAfterCreating is { } after) throw after;
        }

        public async ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
        {
            await inner.DeleteTopicAsync(topic, cancellationToken);
            owner.Deleted.Enqueue(topic);
        }

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }

    private sealed class FaultyConsumer(IBenchConsumer inner, long dropKey, long duplicateKey) : IBenchConsumer
    {
        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public bool PrefetchEnabled => inner.PrefetchEnabled;

        public void StartPolling(IRecordSink sink) => inner.StartPolling(new FaultySink(sink, dropKey, duplicateKey));

        public void StopPolling() => inner.StopPolling();

        public void Dispose() => inner.Dispose();
    }

    private sealed class FaultySink(IRecordSink inner, long dropKey, long duplicateKey) : IRecordSink
    {
        public void OnAssigned() => inner.OnAssigned();

        public void OnError(string reason) => inner.OnError(reason);

        public void OnRecord(long key, ReadOnlySpan<byte> value)
        {
            if (key == dropKey) return;
            inner.OnRecord(key, value);
            if (key == duplicateKey) inner.OnRecord(key, value);
        }
    }
}
