using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Scenarios;

/// <summary>
/// A reference: a tool outside .NET (librdkafka's <c>kcat</c>, Kafka's own perf tools) that produces or consumes a
/// whole run in a process of its own and times itself, so that its row answers "how far is a .NET client from the
/// native or the JVM tool?". The runner gives it the same topic, payload, count and settings as the clients, in the
/// same balanced order, and skips the cells it does not support.
/// </summary>
/// <remarks>Process start-up stays outside the timed section: the reference reports the time of its own sending or
/// fetching, not its process's lifetime. <see cref="IBenchClient.CreateProducer"/> and
/// <see cref="IBenchClient.CreateConsumer"/> are not used.</remarks>
public interface IReferenceClient : IBenchClient
{
    /// <summary>Runs one produce or consume run.</summary>
    /// <param name="scenario">Produce or consume.</param>
    /// <param name="context">The run: topic (created, empty), message count, payload and settings.</param>
    /// <param name="cancellationToken">Stops the run; the tool's process ends with it.</param>
    /// <returns>What was measured; <see cref="RunRecord.Error"/> says why a run failed.</returns>
    RunRecord Run(ScenarioKind scenario, ScenarioContext context, CancellationToken cancellationToken);
}
