namespace KafkaPerf.Clients;

/// <summary>What a client adapter can do beyond the minimum contract.</summary>
[Flags]
public enum ClientCapabilities
{
    /// <summary>Only the minimum contract.</summary>
    None = 0,

    /// <summary>The consumer can prefetch records on a thread of its own (<c>UsePrefetch</c>).</summary>
    Prefetch = 1,

    /// <summary>Delivery reports arrive per record when the broker acknowledges it, so send→ack latency means something.</summary>
    DeliveryLatency = 2,

    /// <summary>The producer honours the workload settings (<see cref="ClientSettings.Keys"/>,
    /// <see cref="ClientSettings.KeySizeBytes"/>, <see cref="ClientSettings.Headers"/>): it keys each record with
    /// <see cref="RecordKeys.KeyOf"/>, adds the headers, and copies the value in every <c>Send</c> (when keys are not
    /// unique, its first 8 bytes carry the record's id and change from one record to the next). Its consumer accepts
    /// any key. Without it, a plan that sets them is refused for this client.</summary>
    Workloads = 4,

    /// <summary>The producer is transactional when <see cref="ClientSettings.TransactionRecords"/> is set (it initialises
    /// its transactions while it is created) and implements <see cref="IBenchProducer.BeginTransaction"/>,
    /// <see cref="IBenchProducer.CommitTransaction"/> and <see cref="IBenchProducer.AbortTransaction"/>; its consumer then
    /// reads committed records only. Without it, a plan with transactions is refused for this client.</summary>
    Transactions = 8,

    /// <summary>The consumer joins a share group (KIP-932) when <see cref="ClientSettings.Group"/> says so, reading the
    /// run's topic from its start, and accepts each record explicitly with <see cref="ConsumerGroupKind.ShareExplicit"/>.
    /// A share consumer is told of no assignment: it calls <see cref="IRecordSink.OnAssigned"/> just before its first
    /// records. Without it, a plan with share groups is refused for this client.</summary>
    ShareGroups = 16,

    /// <summary>The consumer honours the group settings (<see cref="ClientSettings.GroupProtocol"/>,
    /// <see cref="ClientSettings.Assignor"/>, <see cref="ConsumerSpec.InstanceId"/>), reports its rebalances
    /// (<see cref="IRecordSink.OnPartitionsAssigned"/>, <see cref="IRecordSink.OnPartitionsRevoked"/>) and implements
    /// <see cref="IGroupMember"/>, so membership events can leave and crash it. Without it, a plan with group settings or
    /// membership events is refused for this client. Added in contract 2.1.</summary>
    GroupMembership = 32,
}
