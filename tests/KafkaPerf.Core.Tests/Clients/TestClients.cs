using System.Collections.Concurrent;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;

namespace KafkaPerf.Core.Tests.Clients;

/// <summary>Wraps a client to watch its topic lifecycle and to inject consumer and topic-creation faults.</summary>
internal sealed class TestClientFactory(InMemoryClientOptions options, long dropKey = -1, long duplicateKey = -1, long stopAtKey = -1) : IBenchClientFactory
{
    /// <summary>Thrown instead of creating the topic (e.g. "it exists already").</summary>
    public Exception? FailBeforeCreating { get; init; }

    /// <summary>Thrown after the topic was created (e.g. the wait for its metadata timed out).</summary>
    public Exception? FailAfterCreating { get; init; }

    /// <summary>When set, every send moves this clock on by <see cref="SendCostTicks"/> times a factor drawn per producer
    /// (1 ± 5 %, seeded): a client of known speed and spread, whatever else the machine is doing.</summary>
    public SteppingClock? Clock { get; init; }

    /// <summary>Clock ticks one send costs on <see cref="Clock"/>.</summary>
    public long SendCostTicks { get; init; }

    private readonly Random _jitter = new(7);

    public ConcurrentQueue<string> Created { get; } = new();

    public ConcurrentQueue<string> Deleted { get; } = new();

    public ConcurrentQueue<int> CreatedPartitions { get; } = new();

    public string Name => options.Name;

    public string Description => "test";

    /// <summary>What the factory says its clients can do (the in-memory client itself can do more).</summary>
    public ClientCapabilities Capabilities { get; init; }

    /// <summary>CPU a consumer burns as it starts, before its partition is assigned (a group join's work).</summary>
    public TimeSpan JoinCpu { get; init; }

    /// <summary>Whether it stands for a client of a Kafka cluster (the cluster warm-up runs only those).</summary>
    public bool RequiresBroker { get; init; }

    /// <summary>Returned by <see cref="SettingsWarnings"/> for a variant whose linger is unset.</summary>
    public string? LingerWarning { get; init; }

    /// <summary>From this producer on (1 = the first created), producers acknowledge nothing and their flush blocks until
    /// cancelled: a broker that went silent.</summary>
    public int SilentFromProducer { get; init; } = int.MaxValue;

    /// <summary>Called when a silent producer sends its first record (e.g. to end "the broker").</summary>
    public Action? OnSilence { get; init; }

    private int _producers;

    private long _sends;

    /// <summary>The client counts its sends in a counter of its own ("sends"), as the java clients count their JNI calls.</summary>
    public bool CountsSends { get; init; }

    public IReadOnlyList<string> SettingsWarnings(ClientSettings settings) =>
        LingerWarning is not null && settings.LingerMs is null ? [LingerWarning] : [];

    public IBenchClient Create(KafkaEndpoint endpoint) => new Client(new InMemoryClient(options), this, dropKey, duplicateKey, stopAtKey);

    private sealed class Client(InMemoryClient inner, TestClientFactory owner, long dropKey, long duplicateKey, long stopAtKey) : IBenchClient
    {
        public string Name => inner.Name;

        public string LibraryVersion => inner.LibraryVersion;

        public ClientCapabilities Capabilities => inner.Capabilities;

        public IBenchProducer CreateProducer(ProducerSpec spec, IDeliverySink sink)
        {
            if (Interlocked.Increment(ref owner._producers) >= owner.SilentFromProducer) return new SilentProducer(owner, spec.Cancellation);
            var producer = inner.CreateProducer(spec, sink);
            if (owner.CountsSends) producer = new CountingProducer(producer, owner);
            if (owner.Clock is not { } clock) return producer;
            long cost = (long)(owner.SendCostTicks * (0.95 + 0.1 * owner._jitter.NextDouble()));
            return new ClockedProducer(producer, clock, cost);
        }

        public IBenchConsumer CreateConsumer(ConsumerSpec spec) => new FaultyConsumer(inner.CreateConsumer(spec), dropKey, duplicateKey, stopAtKey, owner.JoinCpu);

        public async ValueTask CreateTopicAsync(TopicSpec topic, CancellationToken cancellationToken)
        {
            if (owner.FailBeforeCreating is { } before) throw before;
            await inner.CreateTopicAsync(topic, cancellationToken);
            owner.Created.Enqueue(topic.Name);
            owner.CreatedPartitions.Enqueue(topic.Partitions);
            if (owner.FailAfterCreating is { } after) throw after;
        }

        public async ValueTask DeleteTopicAsync(string topic, CancellationToken cancellationToken)
        {
            await inner.DeleteTopicAsync(topic, cancellationToken);
            owner.Deleted.Enqueue(topic);
        }

        public IReadOnlyList<KeyValuePair<string, long>> ReadCounters() =>
            owner.CountsSends ? [new("sends", Interlocked.Read(ref owner._sends))] : [];

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }

    private sealed class CountingProducer(IBenchProducer inner, TestClientFactory owner) : IBenchProducer
    {
        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public void Send(long key, ReadOnlyMemory<byte> value)
        {
            Interlocked.Increment(ref owner._sends);
            inner.Send(key, value);
        }

        public void Flush(CancellationToken cancellationToken) => inner.Flush(cancellationToken);

        public void Dispose() => inner.Dispose();
    }

    private sealed class ClockedProducer(IBenchProducer inner, SteppingClock clock, long cost) : IBenchProducer
    {
        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public void Send(long key, ReadOnlyMemory<byte> value)
        {
            clock.Advance(cost);
            inner.Send(key, value);
        }

        public void Flush(CancellationToken cancellationToken) => inner.Flush(cancellationToken);

        public void Dispose() => inner.Dispose();
    }

    /// <summary>Swallows every record and blocks in Flush until cancelled.</summary>
    private sealed class SilentProducer(TestClientFactory owner, CancellationToken cancellation) : IBenchProducer
    {
        private bool _sent;

        public IReadOnlyDictionary<string, string> EffectiveConfig { get; } = new Dictionary<string, string>();

        public void Send(long key, ReadOnlyMemory<byte> value)
        {
            if (_sent) return;
            _sent = true;
            owner.OnSilence?.Invoke();
        }

        public void Flush(CancellationToken cancellationToken)
        {
            using var either = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, cancellation);
            either.Token.WaitHandle.WaitOne();
            either.Token.ThrowIfCancellationRequested();
        }

        public void Dispose()
        {
        }
    }

    private sealed class FaultyConsumer(IBenchConsumer inner, long dropKey, long duplicateKey, long stopAtKey, TimeSpan joinCpu) : IBenchConsumer
    {
        public IReadOnlyDictionary<string, string> EffectiveConfig => inner.EffectiveConfig;

        public bool PrefetchEnabled => inner.PrefetchEnabled;

        public void StartPolling(IRecordSink sink)
        {
            // On this thread, before the inner consumer starts and is assigned its partition.
            var until = System.Diagnostics.Stopwatch.GetTimestamp() + (long)(joinCpu.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);
            while (System.Diagnostics.Stopwatch.GetTimestamp() < until) Thread.SpinWait(100);
            inner.StartPolling(new FaultySink(sink, dropKey, duplicateKey, stopAtKey));
        }

        public void StopPolling() => inner.StopPolling();

        public void Dispose() => inner.Dispose();
    }

    /// <summary>Drops one record (the read goes on past it, so its loss is proven), duplicates one, or stops reading at
    /// one as a consumer whose fetches no longer come back would (the records from there on are not verified).</summary>
    private sealed class FaultySink(IRecordSink inner, long dropKey, long duplicateKey, long stopAtKey) : IRecordSink
    {
        private bool _stopped;

        public void OnAssigned() => inner.OnAssigned();

        public void OnError(string reason) => inner.OnError(reason);

        public void OnRecord(long key, ReadOnlySpan<byte> value)
        {
            if (key == stopAtKey) _stopped = true;
            if (_stopped || key == dropKey) return;
            inner.OnRecord(key, value);
            if (key == duplicateKey) inner.OnRecord(key, value);
        }

        public void OnRecordPosition(int partition, long offset)
        {
            if (!_stopped) inner.OnRecordPosition(partition, offset);
        }
    }
}

/// <summary>A clock that moves only when told to: timing logic becomes deterministic.</summary>
internal sealed class SteppingClock : KafkaPerf.Measurement.IClock
{
    private long _now;

    public long Frequency => 1_000_000_000;

    public long GetTimestamp() => Interlocked.Read(ref _now);

    public void Advance(long ticks) => Interlocked.Add(ref _now, ticks);
}
