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

[CollectionDefinition(Name)]
public sealed class BrokerCollectionDefinition : ICollectionFixture<BrokerFixture>
{
    public const string Name = "embedded broker";
}

/// <summary>Classes that run the in-process Java client on a broker or cluster of their own. They run one at a time,
/// after the parallel collections: the JVM and its <c>jni.calls</c> counter belong to the whole test process, and a
/// Java client running beside the broker collection's tests added its calls to the exact per-record counts those tests
/// assert (1.08 calls per record where 1.0 were made, in a CI run).</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class OwnClusterJavaCollectionDefinition
{
    public const string Name = "own cluster, in-process Java, alone";
}
