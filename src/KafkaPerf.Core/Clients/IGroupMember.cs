namespace KafkaPerf.Clients;

/// <summary>
/// A consumer whose membership a run's events end on purpose (<see cref="ClientCapabilities.GroupMembership"/>): the
/// way an application's instance ends when it is shut down, and when it dies. After either, disposing does nothing more.
/// </summary>
/// <remarks>Added in contract 2.1.</remarks>
public interface IGroupMember
{
    /// <summary>Stops polling and closes the consumer as an application does when it shuts down: it commits, leaves the
    /// group (a static member does not: it is expected back) and waits for the broker up to the stall timeout.</summary>
    void Leave();

    /// <summary>Stops polling and lets go of the consumer without leaving the group or committing, as a process that
    /// died: the group notices only when the member's session times out.</summary>
    void Crash();
}
