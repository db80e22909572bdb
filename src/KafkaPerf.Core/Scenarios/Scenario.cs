using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Scenarios;

/// <summary>The catalogue of scenarios: a burst of one producer and one consumer, a load (a rate, several producers or
/// consumers), or a reference tool that runs the whole run itself.</summary>
public static class Scenario
{
    /// <summary>Produce: first send → final flush.</summary>
    public static IScenario Produce { get; } = new ProduceScenario();

    /// <summary>Consume: assignment → last expected record.</summary>
    public static IScenario Consume { get; } = new ConsumeScenario();

    /// <summary>Roundtrip: produce→consume latency of every record.</summary>
    public static IScenario Roundtrip { get; } = new RoundtripScenario();

    /// <summary>The scenario of a kind.</summary>
    /// <param name="kind">The kind.</param>
    /// <returns>Its scenario.</returns>
    public static IScenario For(ScenarioKind kind) => kind switch
    {
        ScenarioKind.Produce => Produce,
        ScenarioKind.Consume => Consume,
        ScenarioKind.Roundtrip => Roundtrip,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown scenario."),
    };

    /// <summary>The scenario that runs a run: the reference tool's own for a reference, the load scenario for a rate or
    /// several producers or consumers (<see cref="LoadScenario.Applies"/>), else the burst of <paramref name="kind"/>.</summary>
    /// <param name="kind">The kind.</param>
    /// <param name="context">The run.</param>
    /// <returns>The scenario.</returns>
    public static IScenario For(ScenarioKind kind, ScenarioContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return context.Client is IReferenceClient reference ? new ReferenceScenario(kind, reference)
            : LoadScenario.Applies(context) ? LoadScenario.For(kind)
            : For(kind);
    }

    /// <summary>A reference tool's run: the tool produces or consumes the whole run in a process of its own.</summary>
    private sealed class ReferenceScenario(ScenarioKind kind, IReferenceClient reference) : IScenario
    {
        public ScenarioKind Kind => kind;

        public RunRecord Run(ScenarioContext context, CancellationToken cancellationToken) => reference.Run(kind, context, cancellationToken);
    }
}
