using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Plans;

/// <summary>One cell of the plan's matrix: every client runs it <c>Repeat</c> times.</summary>
/// <param name="Scenario">The scenario.</param>
/// <param name="MessageCount">Messages per run (at a rate: the measured ones, rate × duration).</param>
/// <param name="PayloadBytes">Payload length.</param>
/// <param name="Settings">The settings variant.</param>
/// <param name="Rate">The offered rate in records per second; <see langword="null"/> for a burst.</param>
public sealed record PlanCell(ScenarioKind Scenario, long MessageCount, int PayloadBytes, ClientSettings Settings, double? Rate = null)
{
    /// <summary>The settings variant's label.</summary>
    public string Variant => Settings.Describe();

    /// <summary>Whether the cell sends at a rate.</summary>
    public bool IsRate => Rate is not null;

    /// <summary>How long the measured part of a rate run lasts: its records at its rate.</summary>
    public TimeSpan MeasuredDuration => Rate is { } rate ? TimeSpan.FromSeconds(MessageCount / rate) : TimeSpan.Zero;
}
