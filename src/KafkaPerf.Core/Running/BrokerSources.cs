using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Running;

/// <summary>Broker sources that need no adapter.</summary>
public static class BrokerSources
{
    /// <summary>A connection already made (a fixture's broker, a worker's cluster): nothing is started, checked or stopped.</summary>
    /// <param name="connection">Where clients connect.</param>
    /// <returns>The source.</returns>
    public static IBrokerSource Connected(ClusterConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        return new ConnectedSource(connection);
    }

    private sealed class ConnectedSource(ClusterConnection connection) : IBrokerSource, IBrokerLease
    {
        public int? KnownBrokers => connection.Brokers;

        public bool ShapesNetwork => connection.Facts.ShapesNetwork;

        public ClusterConnection Connection => connection;

        public Task<IBrokerLease> ConnectAsync(TextWriter? log, CancellationToken cancellationToken) => Task.FromResult<IBrokerLease>(this);

        public void KillNow()
        {
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
