namespace KafkaPerf.Scenarios;

/// <summary>The catalogue of bursts: one producer and one consumer, as fast as they go. A load (a rate, several producers
/// or consumers: <c>Load.LoadScenario</c>) and a reference tool's run (<see cref="ReferenceScenario"/>) are chosen beside
/// them for each run by the runner.</summary>
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
}
