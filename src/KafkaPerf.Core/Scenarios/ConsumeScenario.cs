using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Consume: the topic is filled first (untimed, by the same client; once for its runs of a cell when the runner keeps the
/// fill, <see cref="ScenarioContext.Fill"/>), then the timed section runs from partition assignment to the arrival of the
/// last expected record. Every key 0..N-1 is checked exactly once. The read ends when every record has arrived or every
/// partition has been read past its last acknowledged offset (then the records not seen are proven lost); a consume that
/// stalls past the timeout before either ends as a failed run whose missing records are <em>not verified</em>, with where
/// the read stopped. The time from the assignment to the first record is recorded apart
/// (<see cref="RunRecord.FirstRecordSeconds"/>).
/// </summary>
public sealed class ConsumeScenario : IScenario
{
    /// <inheritdoc />
    public ScenarioKind Kind => ScenarioKind.Consume;

    /// <inheritdoc />
    public RunRecord Run(ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var clock = context.Clock;
        long expected = context.MessageCount;

        using var watch = new StallWatch(context.StallTimeout, cancellationToken);
        AcknowledgedOffsets acknowledged;
        long delivered;
        if (context.Fill?.Acknowledged is { } filled)
        {
            // An earlier run of this client filled the topic: the same records, read from the start in a group of this run's.
            (acknowledged, delivered) = (filled, context.Fill.Delivered);
        }
        else
        {
            acknowledged = context.NewAcknowledgedOffsets(expected);
            if (FillTopic(context, acknowledged, watch, out delivered, cancellationToken) is { } notFilled) return notFilled;
            context.Fill?.Keep(acknowledged, delivered);
        }

        using var sink = new VerifyingRecordSink(clock, Verifier(context.Settings, expected), context.NewReadPositions(), context.Payload, context.CheckPayload,
            RecordIdInValue.Prefix(context.Settings));
        using var breakdown = BurstBreakdown.For(context);
        using var consumer = context.CreateConsumer(watch.Token, breakdown is null ? null : breakdown.Add);
        bool completed;
        // The client's and its JVM's counters are read before the consumer starts: reading them crosses into the client,
        // which must not happen while records are timed (it slowed a java consume of 0.35 s by 60 %).
        breakdown?.Start();
        var counters = ClientCounters.Start(context);
        IReadOnlyDictionary<string, double>? perMessage = null;
        RunResources? resources = null;
        long readFrom = clock.GetTimestamp();
        consumer.StartPolling(sink);
        try
        {
            // The CPU (this process's and the broker's), collections and allocations count what the elapsed time counts,
            // from the partition's assignment to the last record: a group join before it (seconds, for some clients) or
            // the consumer's close after it is no part of the consume. Read as this thread wakes on the assignment, a
            // fraction of a millisecond after it, and cheaply (about 2 µs).
            bool assigned = ProgressWait.Until(sink.Assigned, static () => 0, context.StallTimeout, cancellationToken);
            counters.Rebase();
            // Done when every record arrived or - records missing - every partition was read past its last acknowledged
            // offset, which proves them lost; progress is any record read.
            completed = assigned && ProgressWait.Until(sink.Completed, () => DeliveryProof.ReadToTheEnd(acknowledged, sink.Positions),
                () => sink.Received, context.StallTimeout, cancellationToken);
            if (completed) (perMessage, resources) = counters.Stop(expected);
            // A consumer that stalled leaves without waiting for a broker that may be gone.
            if (!completed || sink.Error is not null) watch.GiveUp("consuming");
        }
        finally
        {
            consumer.StopPolling();
        }
        if (resources is null) (perMessage, resources) = counters.Stop(expected);
        breakdown?.Stop();

        var verifier = sink.Verifier;
        var read = DeliveryProof.Judge(verifier.CountMissing(acknowledged.Keys), acknowledged, sink.Positions,
            new TickConverter(clock.Frequency).ToSeconds(clock.GetTimestamp() - readFrom),
            stoppedBecause: sink.Error is not null ? "the consumer failed" : completed ? null : $"nothing new for {context.StallTimeout.TotalSeconds:0.#} s");
        if (verifier.Excluded > 0 && sink.Error is null)
            sink.OnError($"{verifier.Excluded} records of aborted transactions were read (the consumer should read committed records only)");
        string? error = sink.Error is { } consumerError
            ? $"consumer error after {sink.Received} of {expected} records: {consumerError}"
            : completed ? null
            : sink.AssignedAt == 0 ? $"no partition was assigned within {context.StallTimeout.TotalSeconds:0.#} s"
            : $"stalled: {verifier.Distinct} of {expected} records arrived ({sink.Received} with duplicates), nothing new for {context.StallTimeout.TotalSeconds:0.#} s";

        bool timed = completed && sink.Error is null && sink.CompletedAt != 0;
        var ticks = new TickConverter(clock.Frequency);
        return new RunRecord
        {
            ElapsedSeconds = timed ? ticks.ToSeconds(sink.CompletedAt - sink.AssignedAt) : double.NaN,
            FirstRecordSeconds = timed && sink.FirstAt != 0 ? ticks.ToSeconds(Math.Max(0, sink.FirstAt - sink.AssignedAt)) : null,
            Sent = expected,
            Delivered = delivered,
            Received = sink.Received,
            Duplicates = verifier.Duplicates,
            Unexpected = verifier.Unexpected,
            PayloadMismatches = sink.PayloadMismatches,
            PrefetchEnabled = consumer.PrefetchEnabled,
            Error = error,
            ConsumerConfig = consumer.EffectiveConfig,
            CountersPerMessage = perMessage,
            Resources = resources,
            Breakdown = breakdown?.Result,
        }.With(read);
    }

    /// <summary>Fills the topic with records 0..N-1, untimed, by the run's client: the run's error when it could not.</summary>
    private static RunRecord? FillTopic(ScenarioContext context, AcknowledgedOffsets acknowledged, StallWatch watch, out long delivered,
        CancellationToken cancellationToken)
    {
        long expected = context.MessageCount;
        var prefill = new DeliveryCounter(context.Clock, expected, trackLatency: false, acknowledged);
        delivered = 0;
        try
        {
            watch.Watch("creating the producer that fills the topic", static () => 0);
            using var producer = context.CreateProducer(prefill, watch.Token, measured: false);
            if (ProduceScenario.SendAndFlush(producer, expected, context.Payload, prefill, watch, cancellationToken) is { } stall)
                return new RunRecord { Sent = expected, Delivered = prefill.Delivered, Error = watch.Describe($"filling the topic before consuming, {stall}") };
        }
        catch (Exception ex) when (ProduceScenario.Interrupted(ex, watch, cancellationToken))
        {
            ProduceScenario.ThrowIfCancelled(ex, cancellationToken);
            return new RunRecord { Sent = expected, Error = watch.Describe("filling the topic before consuming, no record sent") };
        }
        delivered = prefill.Delivered;
        return prefill.DescribeShortfall(expected, "filling the topic before consuming") is { } prefillError
            ? new RunRecord { Sent = expected, Delivered = delivered, Error = prefillError }
            : null;
    }

    /// <summary>Keys 0..N-1 each once, except - with aborted transactions - those of the aborted ones, never.</summary>
    internal static KeyVerifier Verifier(ClientSettings settings, long count) =>
        settings is { TransactionRecords: { } records, AbortRatio: { } ratio } && ratio > 0
            ? new KeyVerifier(count, id => TransactionPlan.IsAbortedRecord(id, records, ratio), TransactionPlan.AbortedRecords(count, records, ratio))
            : new KeyVerifier(count);
}
