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
