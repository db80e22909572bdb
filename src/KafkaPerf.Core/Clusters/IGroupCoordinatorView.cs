namespace KafkaPerf.Clusters;

/// <summary>
/// A consumer group as its coordinator tells it (the Admin API's <c>DescribeConsumerGroups</c>): its state and each
/// member's assignment. The members' own rebalance callbacks tell when each was told; this tells when the broker had the
/// group settled - a crashed member is still listed until its session ends, a static member is kept while it restarts.
/// Owned by the connection (<see cref="ClusterConnection.GroupCoordinator"/>), asked for every client alike.
/// </summary>
public interface IGroupCoordinatorView
{
    /// <summary>Opens what asks the coordinator about one group (an admin client), before the run's timed section.</summary>
    /// <param name="group">The group.</param>
    /// <param name="topic">The run's topic: only its partitions are reported.</param>
    /// <returns>The describer; disposed when the run ends.</returns>
    IGroupDescriber Open(string group, string topic);
}

/// <summary>Asks one group's coordinator, again and again (<see cref="IGroupCoordinatorView.Open"/>).</summary>
/// <remarks>Called from one thread of its own, never from a client's; it may allocate.</remarks>
public interface IGroupDescriber : IDisposable
{
    /// <summary>Asks once.</summary>
    /// <param name="timeout">How long the request may take.</param>
    /// <returns>What the coordinator said, or an error.</returns>
    GroupDescription Describe(TimeSpan timeout);
}

/// <summary>A group as its coordinator described it once.</summary>
public sealed record GroupDescription
{
    /// <summary>The group's state as the coordinator names it (<c>Stable</c>, <c>PreparingRebalance</c>,
    /// <c>CompletingRebalance</c>, <c>Empty</c>, or <c>Unknown</c> for a state the admin client cannot name, such as the
    /// consumer protocol's <c>Assigning</c> and <c>Reconciling</c>).</summary>
    public string State { get; init; } = "Unknown";

    /// <summary>The members, each with the run topic's partitions it owns.</summary>
    public IReadOnlyList<GroupMemberDescription> Members { get; init; } = [];

    /// <summary>Why the group could not be described; <see langword="null"/> when it was.</summary>
    public string? Error { get; init; }

    /// <summary>Whether the coordinator has the group settled: described, <c>Stable</c>, exactly <paramref name="members"/>
    /// members, every partition owned by exactly one of them, and each member's assignment its target (the consumer
    /// protocol's; the classic protocol has none).</summary>
    /// <param name="partitions">The topic's partitions.</param>
    /// <param name="members">How many members are live (the harness knows: a crashed one is listed until its session ends).</param>
    /// <returns>Whether it is settled.</returns>
    public bool IsSettled(int partitions, int members)
    {
        if (Error is not null || State != "Stable" || Members.Count != members) return false;
        var owners = new int[partitions];
        foreach (var m in Members)
        {
            if (m.Target is { } target && !target.Order().SequenceEqual(m.Assigned.Order())) return false;
            foreach (int p in m.Assigned)
                if ((uint)p < (uint)partitions) owners[p]++;
        }
        return owners.All(o => o == 1);
    }
}

/// <summary>One member as the coordinator described it.</summary>
/// <param name="InstanceId">Its <c>group.instance.id</c> under static membership.</param>
/// <param name="Assigned">The run topic's partitions it owns.</param>
/// <param name="Target">The partitions the coordinator wants it to own (the consumer protocol); <see langword="null"/> under
/// the classic protocol.</param>
public sealed record GroupMemberDescription(string? InstanceId, IReadOnlyList<int> Assigned, IReadOnlyList<int>? Target);
