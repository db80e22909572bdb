using KafkaPerf.Adapters.Broker;

namespace KafkaPerf.Adapters.Tests;

/// <summary>One real embedded broker for every integration test of this assembly.</summary>
public sealed class BrokerFixture : IAsyncLifetime
{
    private EmbeddedKafkaBroker? _broker;

    public EmbeddedKafkaBroker Broker => _broker ?? throw new InvalidOperationException("The broker has not started.");

    public async ValueTask InitializeAsync() =>
        _broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { HeapMegabytes = 512 }, TestContext.Current.CancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (_broker is not null) await _broker.DisposeAsync();
    }
}

/// <summary>Most classes that need a broker share this one. Their tests run one after another; each makes topics and
/// groups of its own and deletes them, so sharing changes no result.</summary>
[CollectionDefinition(Name)]
public sealed class BrokerCollectionDefinition : ICollectionFixture<BrokerFixture>
{
    public const string Name = "embedded broker";
}

/// <summary>A second shared broker: the classes of the load scenarios (a paused broker, a backlog, share groups) run on
/// it beside <see cref="BrokerCollectionDefinition"/>'s classes instead of after them.</summary>
[CollectionDefinition(Name)]
public sealed class SecondBrokerCollectionDefinition : ICollectionFixture<BrokerFixture>
{
    public const string Name = "embedded broker, second";
}

/// <summary>Classes that assert what the whole test process does: the JVM's <c>jni.calls</c> per record, its collections
/// and heap, the shaping proxy's thread timing and this process's proxy threads. They run one at a time, after every parallel collection, on a broker of
/// their own: a Java client running beside them in another class added its calls to the exact per-record counts they
/// assert (1.08 calls per record where 1.0 were made, in a CI run). Every other class, those that run the in-process
/// Java client on a cluster of their own included, runs in parallel with the others.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ProcessCountersCollectionDefinition : ICollectionFixture<BrokerFixture>
{
    public const string Name = "process-wide counters, alone";
}
