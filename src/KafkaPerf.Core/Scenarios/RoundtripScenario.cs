using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Roundtrip: the consumer is assigned first; then every record's key is its send timestamp
/// (<c>Stopwatch.GetTimestamp()</c> in the same process, so no clock skew), and the consumer records
/// produce→consume latency for every record. The timed section runs from the first send to the last arrival.
/// </summary>
/// <remarks>Keys are timestamps, so identities cannot be checked here: the count is (lost = expected − arrived);
/// produce and consume runs check every key.</remarks>
public sealed class RoundtripScenario : IScenario
{
    private const int CancellationCheckMask = (1 << 16) - 1;

    /// <inheritdoc />
    public ScenarioKind Kind => ScenarioKind.Roundtrip;

    /// <inheritdoc />
    public RunMeasurement Run(ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var clock = context.Clock;
        long expected = context.MessageCount;
        var deliveries = new DeliveryCounter(clock, expected, trackLatency: false);

        using var sink = new RoundtripRecordSink(clock, expected);
        using var consumer = context.Client.CreateConsumer(
            new ConsumerSpec(context.Topic, context.GroupId, context.Settings, context.UsePrefetch));
        long firstSend = 0;
        IReadOnlyDictionary<string, string>? producerConfig = null;
        bool assigned, completed = false;
        IReadOnlyDictionary<string, double>? perMessage = null;
        RunResources? resources = null;
        consumer.StartPolling(sink);
        try
        {
            assigned = ProgressWait.Until(sink.Assigned, static () => 0, context.StallTimeout, cancellationToken);
            if (assigned)
            {
                using var producer = context.Client.CreateProducer(new ProducerSpec(context.Topic, context.Settings), deliveries);
                producerConfig = producer.EffectiveConfig;
                var payload = context.Payload;
                var counters = ClientCounters.Start(context);
                firstSend = clock.GetTimestamp();
                producer.Send(firstSend, payload);
                for (long sent = 1; sent < expected; sent++)
                {
                    if ((sent & CancellationCheckMask) == 0) cancellationToken.ThrowIfCancellationRequested();
                    producer.Send(clock.GetTimestamp(), payload);
                }
                producer.Flush(cancellationToken);
                completed = ProgressWait.Until(sink.Completed, () => sink.Received, context.StallTimeout, cancellationToken);
                (perMessage, resources) = counters.Stop(expected);
            }
        }
        finally
        {
            consumer.StopPolling();
        }

        long received = sink.Received;
        string? error = sink.Error is { } consumerError ? $"consumer error after {received} of {expected} records: {consumerError}"
            : !assigned ? $"no partition was assigned within {context.StallTimeout.TotalSeconds:0.#} s"
            : deliveries.DescribeShortfall(expected, "roundtrip") is { } shortfall ? shortfall
            : completed ? null
            : $"stalled: {received} of {expected} records arrived, nothing new for {context.StallTimeout.TotalSeconds:0.#} s";

        return new RunMeasurement
        {
            ElapsedSeconds = error is null ? new TickConverter(clock.Frequency).ToSeconds(sink.LastAt - firstSend) : double.NaN,
            Sent = assigned ? expected : 0,
            Delivered = deliveries.Delivered,
            Received = received,
            Lost = Math.Max(0, expected - received),
            Latency = sink.Latency,
            PrefetchEnabled = consumer.PrefetchEnabled,
            Error = error,
            ProducerConfig = producerConfig,
            ConsumerConfig = consumer.EffectiveConfig,
            CountersPerMessage = perMessage,
            Resources = resources,
        };
    }
}
