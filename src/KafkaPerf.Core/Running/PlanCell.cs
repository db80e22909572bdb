using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>One cell of the plan's matrix: every client runs it <c>Repeat</c> times.</summary>
/// <param name="Scenario">The scenario.</param>
/// <param name="MessageCount">Messages per run.</param>
/// <param name="PayloadBytes">Payload length.</param>
/// <param name="Settings">The settings variant.</param>
public sealed record PlanCell(ScenarioKind Scenario, long MessageCount, int PayloadBytes, ClientSettings Settings)
{
    /// <summary>The settings variant's label.</summary>
    public string Variant => Settings.Describe();
}
