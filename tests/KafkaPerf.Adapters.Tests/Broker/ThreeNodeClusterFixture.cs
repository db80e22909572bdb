using KafkaPerf.Adapters.Broker;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>A three-node embedded cluster for one test class, started once, with the options its class needs (a session
/// timeout, the shaping proxies).</summary>
public abstract class ThreeNodeClusterFixture : IAsyncLifetime
{
    private ConnectedBroker? _broker;

    public ConnectedBroker Broker => _broker ?? throw new InvalidOperationException("The cluster has not started.");

    public EmbeddedKafkaBroker Cluster => Broker.Embedded!;

    /// <summary>How long a broker may go unheard before the controllers fence it.</summary>
    protected abstract TimeSpan SessionTimeout { get; }

    /// <summary>Whether shaping proxies stand in front of the nodes.</summary>
    protected virtual bool ShapedNetwork => false;

    public async ValueTask InitializeAsync()
    {
        var config = new Dictionary<string, string>
        {
            ["broker.session.timeout.ms"] = ((long)SessionTimeout.TotalMilliseconds).ToString(System.Globalization.CultureInfo.InvariantCulture),
        };
        // Heartbeats a sixth of the timeout apart, and never more than Kafka's default 2 s.
        if (SessionTimeout < TimeSpan.FromSeconds(12)) config["broker.heartbeat.interval.ms"] = ((long)SessionTimeout.TotalMilliseconds / 6).ToString(System.Globalization.CultureInfo.InvariantCulture);
        _broker = await ConnectedBroker.ConnectAsync(BrokerSource.Embedded(new EmbeddedKafkaBrokerOptions
        {
            Brokers = 3,
            HeapMegabytes = 384,
            ShapedNetwork = ShapedNetwork,
            ExtraConfig = config,
        }), null, TestContext.Current.CancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        if (_broker is not null) await _broker.DisposeAsync();
        GC.SuppressFinalize(this);
    }
}
