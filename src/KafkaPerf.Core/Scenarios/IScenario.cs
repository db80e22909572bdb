namespace KafkaPerf.Scenarios;

/// <summary>One way of measuring a client. Scenarios own all timing.</summary>
public interface IScenario
{
    /// <summary>Which scenario this is.</summary>
    ScenarioKind Kind { get; }

    /// <summary>Runs once, blocking the calling thread until done, failed or cancelled.</summary>
    /// <param name="context">Client, topic, payload and settings.</param>
    /// <param name="cancellationToken">Cancels the run.</param>
    /// <returns>What was measured.</returns>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    RunRecord Run(ScenarioContext context, CancellationToken cancellationToken);
}
