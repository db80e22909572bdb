using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// A run's consumer group as its coordinator tells it, with Confluent.Kafka's <c>DescribeConsumerGroups</c> for every
/// client alike: librdkafka asks a classic group with DescribeGroups and a consumer-protocol group with
/// ConsumerGroupDescribe (KIP-848), whose members carry their target assignment too.
/// </summary>
/// <param name="bootstrapServers">The cluster (<c>host:port,…</c>).</param>
/// <param name="security">How clients reach its listener; plain TCP when <see langword="null"/>.</param>
public sealed class ConfluentGroupCoordinatorView(string bootstrapServers, KafkaSecurity? security = null) : IGroupCoordinatorView
{
    /// <inheritdoc />
    public IGroupDescriber Open(string group, string topic)
    {
        ArgumentException.ThrowIfNullOrEmpty(group);
        ArgumentException.ThrowIfNullOrEmpty(topic);
        ConfluentNativeLibrary.EnsureLoaded();
        var config = ConfluentSettings.Admin(bootstrapServers, security);
        config.Set("client.id", "kafkaperf-group-coordinator");
        var admin = new AdminClientBuilder(config).SetLogHandler(static (_, _) => { }).SetErrorHandler(static (_, _) => { }).Build();
        return new Describer(admin, group, topic);
    }

    private sealed class Describer(IAdminClient admin, string group, string topic) : IGroupDescriber
    {
        /// <remarks>A request is given its whole timeout and waited for to the end: librdkafka may abort the process when an
        /// admin request to a coordinator that timed out is answered late (librdkafka issue 4605), so none is abandoned
        /// early.</remarks>
        public GroupDescription Describe(TimeSpan timeout)
        {
            try
            {
                var result = admin.DescribeConsumerGroupsAsync([group], new DescribeConsumerGroupsOptions { RequestTimeout = timeout })
                    .GetAwaiter().GetResult();
                return Of(result.ConsumerGroupDescriptions.Single());
            }
            catch (DescribeConsumerGroupsException ex) when (ex.Results.ConsumerGroupDescriptions.Count == 1)
            {
                return Of(ex.Results.ConsumerGroupDescriptions[0]);
            }
            catch (KafkaException ex)
            {
                return new GroupDescription { Error = ex.Error.Reason };
            }
        }

        private GroupDescription Of(ConsumerGroupDescription description)
        {
            if (description.Error is { IsError: true } error) return new GroupDescription { Error = $"{error.Code}: {error.Reason}" };
            return new GroupDescription
            {
                State = description.State.ToString(),
                Members = [.. description.Members.Select(m => new GroupMemberDescription(m.GroupInstanceId, Partitions(m.Assignment), m.TargetAssignment is null ? null : Partitions(m.TargetAssignment)))],
            };
        }

        private int[] Partitions(MemberAssignment? assignment) =>
            assignment?.TopicPartitions is { } partitions ? [.. partitions.Where(p => p.Topic == topic).Select(p => p.Partition.Value)] : [];

        public void Dispose() => admin.Dispose();
    }
}
