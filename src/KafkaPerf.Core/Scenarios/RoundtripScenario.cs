using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Roundtrip: the consumer is assigned first; then records 0..N-1 are sent with their ids as keys, the clock
/// (<c>Stopwatch.GetTimestamp()</c> in the same process, so no clock skew) noted before every 64th (<see cref="BurstSendTimes"/>),
/// and the consumer records produce→consume latency for every record's first arrival. The timed section runs from the first send to the last
/// arrival; the time from the first send to the first arrival is recorded apart (<see cref="RunRecord.FirstRecordSeconds"/>).
/// Every id is checked exactly once; a record is lost only when the read of its partition went past the offset at which it
/// was acknowledged.
/// </summary>
/// <remarks>The send times take one bit per record, allocated before timing.</remarks>
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
        var acknowledged = context.NewAcknowledgedOffsets(expected);
        var deliveries = new DeliveryCounter(clock, expected, trackLatency: false, acknowledged);
        var sentAt = new BurstSendTimes(expected);

        using var sink = new RoundtripRecordSink(clock, sentAt, ConsumeScenario.Verifier(context.Settings, expected), context.NewReadPositions());
        using var watch = new StallWatch(context.StallTimeout, cancellationToken);
        using var breakdown = BurstBreakdown.For(context);
        using var consumer = context.CreateConsumer(watch.Token, breakdown is null ? null : breakdown.Add);
        long firstSend = 0;
        IReadOnlyDictionary<string, string>? producerConfig = null;
        bool assigned, completed = false;
        string? stall = null;
        IReadOnlyDictionary<string, double>? perMessage = null;
        RunResources? resources = null;
        long readFrom = clock.GetTimestamp();
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
                sentAt.Sending(0, firstSend);
                producer.Send(0, payload);
                for (long id = 1; id < expected; id++)
                {
                    if ((id & CancellationCheckMask) == 0) token.ThrowIfCancellationRequested();
                    if (BurstSendTimes.StartsBlock(id)) sentAt.Sending(id, clock.GetTimestamp());
                    producer.Send(id, payload);
                }
                sentAt.Done(clock.GetTimestamp());
                watch.Watch("flushing", () => deliveries.Delivered + deliveries.Failed);
                producer.Flush(token);
                watch.Idle();
                // Done when every record arrived or - records missing - every partition was read past its last
                // acknowledged offset, which proves them lost.
                completed = ProgressWait.Until(sink.Completed, () => DeliveryProof.ReadToTheEnd(acknowledged, sink.Positions),
                    () => sink.Received, context.StallTimeout, cancellationToken);
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
        var verifier = sink.Verifier;
        var read = DeliveryProof.Judge(verifier.CountMissing(acknowledged.Keys), acknowledged, sink.Positions,
            new TickConverter(clock.Frequency).ToSeconds(clock.GetTimestamp() - readFrom),
            stoppedBecause: sink.Error is not null ? "the consumer failed" : completed ? null : $"nothing new for {context.StallTimeout.TotalSeconds:0.#} s");
        string? error = stall is not null ? stall
            : sink.Error is { } consumerError ? $"consumer error after {received} of {expected} records: {consumerError}"
            : !assigned ? $"no partition was assigned within {context.StallTimeout.TotalSeconds:0.#} s"
            : deliveries.DescribeShortfall(expected, "roundtrip") is { } shortfall ? shortfall
            : completed ? null
            : $"stalled: {verifier.Distinct} of {expected} records arrived ({received} with duplicates), nothing new for {context.StallTimeout.TotalSeconds:0.#} s";

        return new RunRecord
        {
            ElapsedSeconds = error is null && sink.LastAt != 0 ? new TickConverter(clock.Frequency).ToSeconds(sink.LastAt - firstSend) : double.NaN,
            FirstRecordSeconds = error is null && sink.LastAt != 0 && sink.FirstAt != 0
                ? new TickConverter(clock.Frequency).ToSeconds(Math.Max(0, sink.FirstAt - firstSend))
                : null,
            Sent = assigned ? expected : 0,
            Delivered = deliveries.Delivered,
            Received = received,
            Duplicates = verifier.Duplicates,
            Unexpected = verifier.Unexpected,
            LatencyHistogram = sink.Latency,
            PrefetchEnabled = consumer.PrefetchEnabled,
            Error = error,
            ProducerConfig = producerConfig,
            ConsumerConfig = consumer.EffectiveConfig,
            CountersPerMessage = perMessage,
            Resources = resources,
            Breakdown = breakdown?.Result,
        }.With(read);
    }
}
