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
    public RunRecord Run(ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var clock = context.Clock;
        long expected = context.MessageCount;
        var deliveries = new DeliveryCounter(clock, expected, trackLatency: false);

        using var sink = new RoundtripRecordSink(clock, expected);
        using var watch = new StallWatch(context.StallTimeout, cancellationToken);
        using var breakdown = BurstBreakdown.For(context);
        using var consumer = context.CreateConsumer(watch.Token, breakdown is null ? null : breakdown.Add);
        long firstSend = 0;
        IReadOnlyDictionary<string, string>? producerConfig = null;
        bool assigned, completed = false;
        string? stall = null;
        IReadOnlyDictionary<string, double>? perMessage = null;
        RunResources? resources = null;
        consumer.StartPolling(sink);
        try
        {
            // A share group's member is told of no assignment (it signals its first records), and records sent before it
            // joins are its own all the same: the producer starts at once.
            assigned = context.Settings.Group.IsShare() || ProgressWait.Until(sink.Assigned, static () => 0, context.StallTimeout, cancellationToken);
            if (assigned)
            {
                watch.Watch("creating the producer", static () => 0);
                using var producer = context.CreateProducer(deliveries, watch.Token, breakdown: breakdown is null ? null : breakdown.Add);
                producerConfig = producer.EffectiveConfig;
                var payload = context.Payload;
                breakdown?.Start();
                var counters = ClientCounters.Start(context);
                watch.Watch("sending", () => deliveries.Delivered + deliveries.Failed);
                var token = watch.Token;
                firstSend = clock.GetTimestamp();
                producer.Send(firstSend, payload);
                for (long sent = 1; sent < expected; sent++)
                {
                    if ((sent & CancellationCheckMask) == 0) token.ThrowIfCancellationRequested();
                    producer.Send(clock.GetTimestamp(), payload);
                }
                watch.Watch("flushing", () => deliveries.Delivered + deliveries.Failed);
                producer.Flush(token);
                watch.Idle();
                completed = ProgressWait.Until(sink.Completed, () => sink.Received, context.StallTimeout, cancellationToken);
                (perMessage, resources) = counters.Stop(expected);
                breakdown?.Stop();
            }
        }
        catch (Exception ex) when (ProduceScenario.Interrupted(ex, watch, cancellationToken))
        {
            ProduceScenario.ThrowIfCancelled(ex, cancellationToken);
            assigned = true;
            stall = watch.Describe($"{deliveries.Delivered} of {expected} records acknowledged, {sink.Received} arrived");
        }
        finally
        {
            // A consumer that stalled leaves without waiting for a broker that may be gone.
            if (!completed) watch.GiveUp("waiting for the records to arrive");
            consumer.StopPolling();
        }

        long received = sink.Received;
        string? error = stall is not null ? stall
            : sink.Error is { } consumerError ? $"consumer error after {received} of {expected} records: {consumerError}"
            : !assigned ? $"no partition was assigned within {context.StallTimeout.TotalSeconds:0.#} s"
            : deliveries.DescribeShortfall(expected, "roundtrip") is { } shortfall ? shortfall
            : completed ? null
            : $"stalled: {received} of {expected} records arrived, nothing new for {context.StallTimeout.TotalSeconds:0.#} s";

        return new RunRecord
        {
            ElapsedSeconds = error is null ? new TickConverter(clock.Frequency).ToSeconds(sink.LastAt - firstSend) : double.NaN,
            Sent = assigned ? expected : 0,
            Delivered = deliveries.Delivered,
            Received = received,
            Lost = Math.Max(0, expected - received),
            LatencyHistogram = sink.Latency,
            PrefetchEnabled = consumer.PrefetchEnabled,
            Error = error,
            ProducerConfig = producerConfig,
            ConsumerConfig = consumer.EffectiveConfig,
            CountersPerMessage = perMessage,
            Resources = resources,
            Breakdown = breakdown?.Result,
        };
    }
}
