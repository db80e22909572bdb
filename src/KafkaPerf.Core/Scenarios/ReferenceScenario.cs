namespace KafkaPerf.Scenarios;

/// <summary>A reference tool's run: the tool produces or consumes the whole run in a process of its own.</summary>
/// <param name="kind">The scenario.</param>
/// <param name="reference">The tool.</param>
internal sealed class ReferenceScenario(ScenarioKind kind, IReferenceClient reference) : IScenario
{
    /// <inheritdoc />
    public ScenarioKind Kind => kind;

    /// <inheritdoc />
    public RunRecord Run(ScenarioContext context, CancellationToken cancellationToken) => reference.Run(kind, context, cancellationToken);
}
